package io.cq.spring.boot.messages;

import io.cq.spring.core.QueueTemplate;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** With an ObservationRegistry, each listener call is an observation tagged with its queue and listener. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ListenerObservationTest {
    private long index;
    private Observation.Context observed;

    @Configuration(proxyBeanMethods = false)
    static class Observations {
        static final List<Observation.Context> STOPPED = new CopyOnWriteArrayList<>();

        @Bean
        ObservationRegistry observationRegistry() {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new ObservationHandler<>() {
                @Override
                public boolean supportsContext(Observation.Context context) {
                    return true;
                }

                @Override
                public void onStop(Observation.Context context) {
                    STOPPED.add(context);
                }
            });
            return registry;
        }
    }

    /** One listener call, observed, for every test. */
    @BeforeAll
    void observeOneListenerCall(@TempDir Path dir) {
        Observations.STOPPED.clear();
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TradingApplication.class,
                Observations.class)
                .web(WebApplicationType.NONE).properties("cq.base-path=" + dir, "cq.queues.trades.roll-cycle=daily",
                        "cq.queues.fills.roll-cycle=daily").run()) {
            index = context.getBean(QueueTemplate.class).append("fills", new TradingApplication.Fill("o-1", 10));

            await().atMost(Duration.ofSeconds(10)).until(() -> Observations.STOPPED.stream()
                    .anyMatch(c -> c.getName().equals("cq.listener")));

            observed = Observations.STOPPED.stream().filter(c -> c.getName().equals("cq.listener"))
                    .findFirst().orElseThrow();
        }
    }

    @Test
    void shouldTagTheObservationOfAListenerCallWithItsQueueAndListener() {
        assertThat(observed.getLowCardinalityKeyValues()).contains(KeyValue.of("queue", "fills"),
                KeyValue.of("listener", "ledger"));
    }

    @Test
    void shouldTagTheObservationOfAListenerCallWithTheIndexOfItsExcerpt() {
        assertThat(observed.getHighCardinalityKeyValue("cq.index").getValue())
                .isEqualTo("0x" + Long.toHexString(index));
    }

    @Test
    void shouldRecordNoErrorForAListenerCallThatReturns() {
        assertThat(observed.getError()).isNull();
    }
}
