package io.cq.spring.boot.autoconfigure;

import io.cq.spring.annotation.QueueListener;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.config.QueueListenerContainerFactory;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.listener.FailedExcerpt;
import io.cq.spring.listener.ListenerErrorHandler;
import io.cq.spring.listener.ListenerState;
import io.cq.spring.listener.LoggingErrorHandler;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class CqListenerAutoConfigurationTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.orders.durability=page-cache",
                        "cq.listener.max-attempts=1");
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
