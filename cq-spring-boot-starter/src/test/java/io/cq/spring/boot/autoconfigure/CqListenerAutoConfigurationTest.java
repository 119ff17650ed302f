package io.cq.spring.boot.autoconfigure;

import io.cq.spring.annotation.QueueListener;
import io.cq.spring.config.DefaultQueueListenerContainerFactory;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.config.ListenerIdleStrategy;
import io.cq.spring.config.QueueListenerContainerFactory;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.listener.FailedExcerpt;
import io.cq.spring.listener.ListenerErrorHandler;
import io.cq.spring.listener.ListenerState;
import io.cq.spring.listener.LoggingErrorHandler;
import io.cq.spring.listener.QueueListenerContainer;
import io.cq.spring.listener.RetryPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class CqListenerAutoConfigurationTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.orders.durability=page-cache",
                        "cq.listener.retry.max-attempts=1");
    }

    @Test
    void shouldKeepTheDefaultErrorHandlerBesideOnesThatListenersName() {
        runner().withUserConfiguration(NamedHandlers.class).run(context -> {
            assertThat(context.getBean(CqListenerAutoConfiguration.DEFAULT_ERROR_HANDLER))
                    .isInstanceOf(LoggingErrorHandler.class);
            context.getBean(QueueTemplate.class).appendText("orders", "fails");
            ListenerContainerRegistry registry = context.getBean(ListenerContainerRegistry.class);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> registry.container("named").state() == ListenerState.FAILED);
            await().atMost(Duration.ofSeconds(10)).until(() -> registry.container("default").failedCount() == 1);
            assertThat(registry.container("default").state()).isEqualTo(ListenerState.RUNNING);
            assertThat(context.getBean(NamedHandlers.class).handled).containsExactly("named");
        });
    }

    @Test
    void shouldReplaceTheDefaultErrorHandlerWithABeanOfItsName() {
        runner().withUserConfiguration(ReplacedDefaultHandler.class).run(context -> {
            context.getBean(QueueTemplate.class).appendText("orders", "fails");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> context.getBean(ReplacedDefaultHandler.class).handled.size() == 2);
            assertThat(context.getBean(ReplacedDefaultHandler.class).handled)
                    .containsExactlyInAnyOrder("named", "default");
        });
    }

    @Test
    void shouldBuildAListenersContainerWithTheFactoryItNames() {
        runner().withUserConfiguration(OwnFactory.class).run(context -> {
            assertThat(context.getBean(OwnFactory.class).created).containsExactly("with-own-factory");
            assertThat(context.getBean(ListenerContainerRegistry.class).containers()).hasSize(1);
        });
    }

    @Test
    void shouldLetAnApplicationsOwnFactoryStartFromTheConfiguredSettings() {
        runner().withPropertyValues("cq.listener.retry.max-attempts=2", "cq.listener.retry.interval=1ms",
                "cq.listener.idle.strategy=sleeping", "cq.listener.idle.max-park=2ms",
                "cq.listener.shutdown-timeout=3s").withUserConfiguration(ConfiguredFactory.class).run(context -> {
                    DefaultQueueListenerContainerFactory defaults = context.getBean("queueListenerContainerFactory",
                            DefaultQueueListenerContainerFactory.class);
                    DefaultQueueListenerContainerFactory patient = context.getBean("patientFactory",
                            DefaultQueueListenerContainerFactory.class);
                    assertThat(defaults.retryPolicy().maxAttempts()).isEqualTo(2);
                    assertThat(defaults.idleSettings().strategy()).isEqualTo(ListenerIdleStrategy.SLEEPING);
                    assertThat(defaults.idleSettings().maxPark()).isEqualTo(Duration.ofMillis(2));
                    // Everything from cq.listener.* but what the application changed.
                    assertThat(patient.retryPolicy().maxAttempts()).isEqualTo(5);
                    assertThat(patient.idleSettings()).isEqualTo(defaults.idleSettings());
                    assertThat(patient.shutdownTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(patient.errorHandler()).isSameAs(context.getBean("queueListenerErrorHandler"));

                    context.getBean(QueueTemplate.class).appendText("orders", "fails");
                    ConfiguredFactory config = context.getBean(ConfiguredFactory.class);
                    await().atMost(Duration.ofSeconds(10)).until(() -> config.calls.get() == 5);
                    QueueListenerContainer container = context.getBean(ListenerContainerRegistry.class)
                            .container("patient");
                    await().atMost(Duration.ofSeconds(10)).until(() -> container.failedCount() == 1);
                    assertThat(container.retryCount()).isEqualTo(4);
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class ConfiguredFactory {
        final AtomicInteger calls = new AtomicInteger();

        @Bean
        DefaultQueueListenerContainerFactory patientFactory(QueueListenerContainerFactoryConfigurer configurer) {
            DefaultQueueListenerContainerFactory factory = new DefaultQueueListenerContainerFactory();
            configurer.configure(factory);
            factory.setRetryPolicy(new RetryPolicy(5, Duration.ofMillis(1), 1.0, Duration.ofMillis(1)));
            return factory;
        }

        @Bean
        Object patientListener() {
            return new Object() {
                @QueueListener(queue = "orders", id = "patient", containerFactory = "patientFactory")
                void onOrder(String text) {
                    calls.incrementAndGet();
                    throw new IllegalStateException("refused " + text);
                }
            };
        }
    }

    static class Listeners {
        @QueueListener(queue = "orders", id = "named", errorHandler = "stopper")
        void named(String text) {
            throw new IllegalStateException("refused " + text);
        }

        @QueueListener(queue = "orders", id = "default")
        void byDefault(String text) {
            throw new IllegalStateException("refused " + text);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NamedHandlers {
        final List<String> handled = new CopyOnWriteArrayList<>();

        @Bean
        Listeners listeners() {
            return new Listeners();
        }

        @Bean
        ListenerErrorHandler stopper() {
            return (FailedExcerpt excerpt, Exception error) -> {
                handled.add(excerpt.listenerId());
                return ListenerErrorHandler.Resolution.STOP;
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ReplacedDefaultHandler {
        final List<String> handled = new CopyOnWriteArrayList<>();

        @Bean
        Listeners listeners() {
            return new Listeners();
        }

        @Bean
        ListenerErrorHandler stopper() {
            return (excerpt, error) -> {
                handled.add(excerpt.listenerId());
                return ListenerErrorHandler.Resolution.STOP;
            };
        }

        @Bean(CqListenerAutoConfiguration.DEFAULT_ERROR_HANDLER)
        ListenerErrorHandler queueListenerErrorHandler() {
            return (excerpt, error) -> {
                handled.add(excerpt.listenerId());
                return ListenerErrorHandler.Resolution.SKIP;
            };
        }
    }

    static class FactoryListener {
        @QueueListener(queue = "orders", id = "with-own-factory", containerFactory = "recordingFactory")
        void onOrder(String text) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnFactory {
        final List<String> created = new CopyOnWriteArrayList<>();

        @Bean
        FactoryListener factoryListener() {
            return new FactoryListener();
        }

        /** Delegates to the starter's factory: a typical way to adjust a few listeners' containers. */
        @Bean
        QueueListenerContainerFactory recordingFactory(
                @Qualifier("queueListenerContainerFactory") QueueListenerContainerFactory defaults) {
            return (endpoint, queue) -> {
                created.add(endpoint.id());
                return defaults.createContainer(endpoint, queue);
            };
        }
    }
}
