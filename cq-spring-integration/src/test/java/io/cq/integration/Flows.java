package io.cq.integration;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;

/** Real Spring contexts with Spring Integration enabled, for the tests' flows. */
public final class Flows {
    private Flows() {
    }

    /** A started context holding these flows, as beans flow0, flow1... */
    public static AnnotationConfigApplicationContext run(IntegrationFlow... flows) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.register(IntegrationEnabled.class);
        for (int i = 0; i < flows.length; i++) {
            IntegrationFlow flow = flows[i];
            context.registerBean("flow" + i, IntegrationFlow.class, () -> flow);
        }
        context.refresh();
        return context;
    }

    @Configuration(proxyBeanMethods = false)
    @EnableIntegration
    static class IntegrationEnabled {
    }
}
