package io.cq.integration;

import io.micrometer.observation.ObservationRegistry;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.config.EnableIntegrationManagement;
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

    /**
     * A started context holding these flows and {@code registry} as its {@code ObservationRegistry} bean, which cq's
     * adapters observe with; with {@code integrationObserved}, Spring Integration observes every endpoint with it
     * too ({@code @EnableIntegrationManagement(observationPatterns = "*")}).
     */
    public static AnnotationConfigApplicationContext runObserved(ObservationRegistry registry,
            boolean integrationObserved, IntegrationFlow... flows) {
        AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
        context.register(IntegrationEnabled.class);
        if (integrationObserved) {
            context.register(IntegrationObserved.class);
        }
        context.registerBean(ObservationRegistry.class, () -> registry);
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

    @Configuration(proxyBeanMethods = false)
    @EnableIntegrationManagement(observationPatterns = "*")
    static class IntegrationObserved {
    }
}
