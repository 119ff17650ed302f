package io.cq.spring.boot.autoconfigure;

import io.cq.core.Durability;
import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.support.InvalidQueuePropertyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.nio.file.Path;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CqAutoConfigurationTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir);
    }

    @Test
    void shouldOpenEachConfiguredQueueAsABeanNamedAfterIt() {
        runner().withPropertyValues("cq.queues.orders.roll-cycle=hourly", "cq.queues.orders.block-size=1MB",
                        "cq.queues.orders.index-spacing=64", "cq.queues.orders.durability=async",
                        "cq.queues.audit.path=" + dir.resolve("elsewhere/audit"))
                .withUserConfiguration(QualifiedInjection.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Map<String, MappedQueue> queues = context.getBeansOfType(MappedQueue.class);
                    assertThat(queues).containsOnlyKeys("orders", "audit");
                    MappedQueue orders = queues.get("orders");
                    assertThat(orders.path()).isEqualTo(dir.resolve("orders"));
                    assertThat(orders.rollCycle()).isEqualTo(RollCycle.HOURLY);
                    assertThat(orders.blockSize()).isEqualTo(1 << 20);
                    assertThat(orders.indexSpacing()).isEqualTo(64);
                    assertThat(orders.durability()).isEqualTo(Durability.ASYNC);
                    assertThat(queues.get("audit").path()).isEqualTo(dir.resolve("elsewhere/audit"));
                    assertThat(queues.get("audit").rollCycle()).isEqualTo(RollCycle.DAILY);
                    assertThat(context.getBean(QualifiedInjection.class).orders).isSameAs(orders);
                });
    }

    @Test
    void shouldRollAtTheConfiguredTime() {
        fxQueueRollingAt1700NewYork()
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MappedQueue fx = context.getBean("fx", MappedQueue.class);
                    assertThat(fx.cycleCalendar().rollTime()).isEqualTo(LocalTime.of(17, 0));
                    assertThat(fx.cycleCalendar().zone()).isEqualTo(ZoneId.of("America/New_York"));
                });
    }

    @Test
    void shouldNameTheRollTimeAnExistingQueueKeepsWhenAnotherIsConfigured() {
        fxQueueRollingAt1700NewYork().run(context -> assertThat(context).hasNotFailed());

        runner().withPropertyValues("cq.queues.fx.roll-time=00:00", "cq.queues.fx.roll-time-zone=Europe/London")
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("cq.queues.fx.roll-time")
                            .contains("rolls at 17:00 America/New_York");
                    assertThat(analysis.getAction()).contains("cq.queues.fx.roll-time=17:00")
                            .contains("cq.queues.fx.roll-time-zone=America/New_York");
                });
    }

    @Test
    void shouldKeepTheRollTimeOfAnExistingQueueWhenNoneIsConfigured() {
        fxQueueRollingAt1700NewYork().run(context -> assertThat(context).hasNotFailed());

        runner().withPropertyValues("cq.queues.fx.durability=page-cache").run(context ->
                assertThat(context.getBean("fx", MappedQueue.class).cycleCalendar().zone())
                        .isEqualTo(ZoneId.of("America/New_York")));
    }

    private ApplicationContextRunner fxQueueRollingAt1700NewYork() {
        return runner().withPropertyValues("cq.queues.fx.roll-time=17:00",
                "cq.queues.fx.roll-time-zone=America/New_York");
    }

    @Test
    void shouldOpenAnAsyncQueueFromProperties() {
        asyncTicksQueue()
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MappedQueue ticks = context.getBean("ticks", MappedQueue.class);
                    assertThat(ticks.settings().asyncMode()).isTrue();
                    assertThat(ticks.settings().asyncBufferSize()).isEqualTo(64 << 10);
                    try (ExcerptAppender appender = ticks.createAppender();
                         ExcerptTailer tailer = ticks.createTailer()) {
                        long index = appender.writeText("tick");
                        assertThat(tailer.readText()).isEqualTo("tick");
                        assertThat(tailer.index()).isEqualTo(index + 1);
                    }
                });
    }

    @Test
    void shouldNameTheAsyncModeAnExistingQueueKeepsWhenAnotherIsConfigured() {
        asyncTicksQueue().run(context -> assertThat(context).hasNotFailed());

        runner().withPropertyValues("cq.queues.ticks.async-mode=false", asyncBuffers())
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("cq.queues.ticks.async-mode")
                            .contains("created in async mode");
                    assertThat(analysis.getAction()).contains("cq.queues.ticks.async-mode=true");
                });
    }

    @Test
    void shouldKeepTheAsyncModeOfAnExistingQueueWhenNoneIsConfigured() {
        asyncTicksQueue().run(context -> assertThat(context).hasNotFailed());

        runner().withPropertyValues("cq.queues.ticks.durability=page-cache", asyncBuffers()).run(context ->
                assertThat(context.getBean("ticks", MappedQueue.class).settings().asyncMode()).isTrue());
    }

    private ApplicationContextRunner asyncTicksQueue() {
        return runner().withPropertyValues("cq.queues.ticks.async-mode=true", "cq.queues.ticks.async-buffer-size=64KB",
                asyncBuffers());
    }

    private String asyncBuffers() {
        return "cq.queues.ticks.async-buffer-directory=" + dir.resolve("buffers");
    }

    @Test
    void shouldRefuseABeanOfAnotherTypeNamedLikeAQueueAtStartUp() {
        runner().withPropertyValues("cq.queues.orders.durability=page-cache")
                .withBean("orders", StringBuilder.class, StringBuilder::new)
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    while (failure != null && !(failure instanceof InvalidQueuePropertyException)) {
                        failure = failure.getCause();
                    }
                    assertThat(failure).as(String.valueOf(context.getStartupFailure())).isNotNull()
                            .hasMessageContaining("already has a bean named 'orders' of type java.lang.StringBuilder");
                });
    }

    @Test
    void shouldNameBothBeansWhenABeanMethodTakesAQueuesName() {
        // The bean needs the queue it hides: without the check, a circular reference with no failure analysis.
        runner().withPropertyValues("cq.queues.orders.durability=page-cache")
                .withUserConfiguration(BeanNamedLikeAQueue.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = StartupFailures.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("cq.queues.orders")
                            .contains("bean named 'orders' of type " + OrderDesk.class.getName())
                            .contains(BeanNamedLikeAQueue.class.getSimpleName())
                            .contains("the queue 'orders' would be the MappedQueue bean of the same name");
                    assertThat(analysis.getAction()).contains("@Bean(\"ordersService\")")
                            .contains("cq.queues.<other-name>.path");
                });
    }

    record OrderDesk(MappedQueue queue) {
    }

    @Configuration(proxyBeanMethods = false)
    static class BeanNamedLikeAQueue {
        @Bean
        OrderDesk orders(MappedQueue orders) {
            return new OrderDesk(orders);
        }
    }

    @Test
    void shouldCloseQueuesWhenTheContextCloses() {
        List<MappedQueue> opened = new ArrayList<>();
        runner().withPropertyValues("cq.queues.orders.durability=page-cache")
                .run(context -> opened.add(context.getBean("orders", MappedQueue.class)));
        assertThat(opened).singleElement().satisfies(queue -> assertThat(queue.isClosed()).isTrue());
    }

    @Test
    void shouldApplyCustomizersWithTheQueueName() {
        runner().withPropertyValues("cq.queues.orders.durability=page-cache", "cq.queues.audit.durability=page-cache")
                .withUserConfiguration(Customizers.class)
                .run(context -> {
                    assertThat(context.getBean(Customizers.class).customized)
                            .containsExactlyInAnyOrder("orders", "audit");
                    assertThat(context.getBean("audit", MappedQueue.class).indexSpacing()).isEqualTo(256);
                    assertThat(context.getBean("orders", MappedQueue.class).indexSpacing()).isEqualTo(16);
                });
    }

    @Test
    void shouldAppendThroughTheTemplateToAnyQueueBean() {
        runner().withPropertyValues("cq.queues.orders.durability=page-cache").run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            long first = template.appendText("orders", "héllo");
            long second = template.appendBytes("orders", new byte[] {1, 2, 3});
            long third = template.write("orders", bytes -> bytes.writeLong(42));
            MappedQueue orders = context.getBean("orders", MappedQueue.class);
            try (var tailer = orders.createTailer()) {
                assertThat(tailer.readText()).isEqualTo("héllo");
                assertThat(tailer.readBytes()).containsExactly(1, 2, 3);
                assertThat(tailer.readBytes()).hasSize(8);
            }
            assertThat(List.of(first, second, third)).isSorted().doesNotHaveDuplicates();
            assertThat(orders.appendedExcerpts()).isEqualTo(3);
            assertThat(orders.appendedBytes()).isEqualTo(6 + 3 + 8);
        });
    }

    @Test
    void shouldLeaveNothingAppendedWhenTheWriterThrows() {
        runner().withPropertyValues("cq.queues.orders.durability=page-cache").run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            try {
                template.write("orders", bytes -> {
                    bytes.writeInt(7);
                    throw new IllegalStateException("encoding failed");
                });
            } catch (IllegalStateException expected) {
                assertThat(expected).hasMessage("encoding failed");
            }
            assertThat(context.getBean("orders", MappedQueue.class).lastIndex()).isEqualTo(-1);
        });
    }

    @Test
    void shouldBackOffFromBeansTheApplicationDefines() {
        runner().withPropertyValues("cq.queues.orders.durability=page-cache")
                .withUserConfiguration(OwnBeans.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(QueueTemplate.class)).isSameAs(context.getBean(OwnBeans.class).template);
                    assertThat(context.getBean("orders", MappedQueue.class).path()).isEqualTo(dir.resolve("mine"));
                });
    }

    @Test
    void shouldRegisterNoQueueWithoutProperties() {
        runner().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(MappedQueue.class);
            assertThat(context.getBean(QueueTemplate.class).queueNames()).isEmpty();
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class QualifiedInjection {
        MappedQueue orders;

        @Bean
        String usesOrders(@Qualifier("orders") MappedQueue orders) {
            this.orders = orders;
            return "uses orders";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {
        final List<String> customized = new ArrayList<>();

        @Bean
        MappedQueueBuilderCustomizer recordingCustomizer() {
            return (name, builder) -> {
                customized.add(name);
                if (name.equals("audit")) {
                    builder.indexSpacing(256);
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        QueueTemplate template;

        @Bean
        MappedQueue orders(@org.springframework.beans.factory.annotation.Value("${cq.base-path}") Path base) {
            return MappedQueue.builder(base.resolve("mine")).build();
        }

        @Bean
        QueueTemplate ownTemplate(Map<String, MappedQueue> queues) {
            template = new QueueTemplate(queues);
            return template;
        }
    }
}
