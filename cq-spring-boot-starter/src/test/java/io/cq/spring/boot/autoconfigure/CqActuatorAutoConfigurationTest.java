package io.cq.spring.boot.autoconfigure;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.spring.actuate.QueueDescriptor;
import io.cq.spring.actuate.QueueMetrics;
import io.cq.spring.actuate.QueuesEndpoint;
import io.cq.spring.actuate.QueuesHealthIndicator;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.event.ListenerStoppedEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Path;
import java.security.Principal;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class CqActuatorAutoConfigurationTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class,
                        CqActuatorAutoConfiguration.class, CqMetricsAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.orders.durability=page-cache");
    }

    @Test
    void shouldProvideTheEndpointWhenItIsExposed() {
        runner().withPropertyValues("management.endpoints.web.exposure.include=queues").run(context -> {
            assertThat(context).hasSingleBean(QueuesEndpoint.class);
            context.getBean(QueueTemplate.class).appendText("orders", "x");
            var orders = context.getBean(QueuesEndpoint.class).queue(SecurityContext.NONE, "orders");
            assertThat(orders.lastIndex()).isEqualTo(context.getBean("orders", MappedQueue.class).lastIndex());
            assertThat(orders.lastIndexHex()).isEqualTo("0x" + Long.toHexString(orders.lastIndex()));
            assertThat(orders.files()).isEqualTo(1);
            assertThat(orders.writtenBytes()).isPositive();
            assertThat(orders.allocatedBytes()).as("tests run with native access").isGreaterThanOrEqualTo(
                    orders.writtenBytes() - 4096);
            assertThat(orders.settings()).containsEntry("durability", "PAGE_CACHE").containsEntry("readOnly", "false")
                    .containsKeys("rollCycle", "blockSize", "indexSpacing", "retainCycles", "writeLockCheckInterval");
            assertThat(context.getBean(QueuesEndpoint.class).queue(SecurityContext.NONE, "missing")).isNull();
        });
    }

    @Test
    void shouldHidePathsProcessIdsAndHostsByDefault() {
        runner().withPropertyValues("management.endpoints.web.exposure.include=queues").run(context -> {
            context.getBean(QueueTemplate.class).appendText("orders", "x");
            QueueDescriptor hidden = context.getBean(QueuesEndpoint.class).queue(SecurityContext.NONE, "orders");
            assertThat(hidden.path()).isEqualTo(QueueDescriptor.HIDDEN);
            assertThat(hidden.writers()).isNotEmpty().allSatisfy(writer -> {
                assertThat(writer.pid()).isNull();
                assertThat(writer.host()).isEqualTo(QueueDescriptor.HIDDEN);
            });
        });
    }

    @Test
    void shouldShowPathsAndProcessIdsWhenShowValuesIsAlways() {
        runner().withPropertyValues("management.endpoints.web.exposure.include=queues",
                "management.endpoint.queues.show-values=always").run(context -> {
                    context.getBean(QueueTemplate.class).appendText("orders", "x");
                    QueueDescriptor shown = context.getBean(QueuesEndpoint.class).queue(SecurityContext.NONE, "orders");
                    assertThat(shown.path()).isEqualTo(dir.resolve("orders").toString());
                    assertThat(shown.writers()).anySatisfy(writer ->
                            assertThat(writer.pid()).isEqualTo(ProcessHandle.current().pid()));
                });
    }

    @Test
    void shouldShowPathsOnlyToTheConfiguredRolesWhenShowValuesIsWhenAuthorized() {
        runner().withPropertyValues("management.endpoints.web.exposure.include=queues",
                "management.endpoint.queues.show-values=when-authorized", "management.endpoint.queues.roles=ops")
                .run(context -> {
                    QueuesEndpoint endpoint = context.getBean(QueuesEndpoint.class);
                    assertThat(endpoint.queue(user("ops"), "orders").path())
                            .isEqualTo(dir.resolve("orders").toString());
                    assertThat(endpoint.queue(user("dev"), "orders").path()).isEqualTo(QueueDescriptor.HIDDEN);
                    assertThat(endpoint.queue(SecurityContext.NONE, "orders").path()).isEqualTo(QueueDescriptor.HIDDEN);
                    assertThat(endpoint.queues(user("ops")).get("orders").path())
                            .isEqualTo(dir.resolve("orders").toString());
                });
    }

    private static SecurityContext user(String role) {
        return new SecurityContext() {
            @Override
            public Principal getPrincipal() {
                return () -> "someone";
            }

            @Override
            public boolean isUserInRole(String name) {
                return name.equals(role);
            }
        };
    }

    @Test
    void shouldLeaveTheEndpointOutWhenItIsNotExposed() {
        runner().run(context -> assertThat(context).doesNotHaveBean(QueuesEndpoint.class));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldHideQueueDirectoriesInHealthDetailsUnlessValuesAreAlwaysShown() {
        runner().run(context -> assertThat((java.util.Map<String, Object>) context.getBean(QueuesHealthIndicator.class)
                .health(true).getDetails().get("orders")).containsEntry("path", "******"));
        runner().withPropertyValues("management.endpoint.queues.show-values=when-authorized")
                .run(context -> assertThat((java.util.Map<String, Object>) context
                        .getBean(QueuesHealthIndicator.class).health(true).getDetails().get("orders"))
                        .containsEntry("path", "******"));
        runner().withPropertyValues("management.endpoint.queues.show-values=always")
                .run(context -> assertThat((java.util.Map<String, Object>) context
                        .getBean(QueuesHealthIndicator.class).health(true).getDetails().get("orders"))
                        .containsEntry("path", dir.resolve("orders").toString()));
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldReportHealthDownWhenFreeSpaceIsBelowTheThreshold() {
        runner().withPropertyValues("cq.queues.full.disk-space-warning-percent=100").run(context -> {
            QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
            var result = health.health(true);
            assertThat(result.getStatus()).isEqualTo(Status.DOWN);
            assertThat(result.getDetails()).containsKeys("orders", "full");
            assertThat((java.util.Map<String, Object>) result.getDetails().get("full")).containsEntry("diskLow", true);
            assertThat((java.util.Map<String, Object>) result.getDetails().get("orders"))
                    .containsEntry("diskLow", false);
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldReportHealthDownWhenAListenerWasStoppedByAnError() {
        runner().withPropertyValues("cq.listener.retry.max-attempts=1", "cq.listener.recoverer=stop-container")
                .withBean(RefusingListener.class).run(context -> {
                    QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
                    assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
                    context.getBean(QueueTemplate.class).appendText("orders", "refused");
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> health.health(true).getStatus().equals(Status.DOWN));
                    var orders = (java.util.Map<String, Object>) health.health(true).getDetails().get("orders");
                    assertThat(orders.get("listeners")).isEqualTo(java.util.Map.of("refusing", "FAILED"));
                    assertThat(orders).containsEntry("diskLow", false).containsEntry("writable", true)
                            .containsEntry("localFilesystem", true)
                            .containsEntry("filesystem",
                                    context.getBean("orders", MappedQueue.class).filesystem().type());
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldStopAListenerThatMeetsADamagedQueueFailedInHealthMetricsAndEvents() throws Exception {
        Path orders = dir.resolve("orders");
        try (MappedQueue queue = MappedQueue.builder(orders).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 2_000; i++) {
                appender.writeText("order " + i + " " + "o".repeat(60));
            }
        }
        Path cycleFile;
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(orders)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(cycleFile,
                java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.allocate(4096), (channel.size() / 2) & -4096L);
        }
        java.util.List<ListenerStoppedEvent> stopped = new java.util.concurrent.CopyOnWriteArrayList<>();
        runner().withBean(SimpleMeterRegistry.class).withBean(CountingListener.class)
                .withBean(org.springframework.context.ApplicationListener.class,
                        () -> (org.springframework.context.ApplicationListener<ListenerStoppedEvent>) stopped::add)
                .run(context -> {
                    QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> health.health(true).getStatus().equals(Status.DOWN));
                    var details = (java.util.Map<String, Object>) health.health(true).getDetails().get("orders");
                    assertThat(details.get("listeners")).isEqualTo(java.util.Map.of("counting", "FAILED"));
                    assertThat(context.getBean(SimpleMeterRegistry.class).get("cq.listener.stopped.by.error")
                            .tag("listener", "counting").gauge().value()).isEqualTo(1.0);
                    assertThat(stopped).singleElement().satisfies(event ->
                            assertThat(event.reason()).isEqualTo(ListenerStoppedEvent.Reason.FAILED));
                    CountingListener listener = context.getBean(CountingListener.class);
                    assertThat(listener.count.get()).isPositive().isLessThan(2_000);
                });
    }

    static class CountingListener {
        final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();

        @QueueListener(queue = "orders", id = "counting")
        void onOrder(String text) {
            count.incrementAndGet();
        }
    }

    static class RefusingListener {
        @QueueListener(queue = "orders", id = "refusing")
        void onOrder(String text) {
            throw new IllegalStateException("refused " + text);
        }
    }

    @Test
    void shouldLeaveHealthOutWhenDisabled() {
        runner().withPropertyValues("management.health.queues.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(QueuesHealthIndicator.class));
    }

    @Test
    void shouldWorkWithoutTheActuatorOnTheClassPath() {
        runner().withPropertyValues("management.endpoints.web.exposure.include=queues")
                .withClassLoader(new FilteredClassLoader(Endpoint.class, AbstractHealthIndicator.class,
                MeterRegistry.class))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).hasSingleBean(QueueTemplate.class);
                    assertThat(context).doesNotHaveBean(QueuesEndpoint.class);
                    assertThat(context).doesNotHaveBean(QueuesHealthIndicator.class);
                    assertThat(context).doesNotHaveBean(QueueMetrics.class);
                });
    }

    @Test
    void shouldGaugeWhatAnAsyncQueueHasNotDrainedYet() {
        runner().withBean(SimpleMeterRegistry.class)
                .withPropertyValues("cq.queues.ticks.async-mode=true", "cq.queues.ticks.async-drain=false",
                        "cq.queues.ticks.async-buffer-directory=" + dir.resolve("buffers"))
                .run(context -> {
                    MeterRegistry meters = context.getBean(MeterRegistry.class);
                    assertThat(meters.find("cq.queue.async.buffered").tag("queue", "orders").gauge())
                            .as("only async queues have it").isNull();
                    context.getBean(QueueTemplate.class).appendText("ticks", "tick");
                    assertThat(meters.get("cq.queue.async.buffered").tag("queue", "ticks").gauge().value())
                            .as("one record of a 4-byte excerpt, nobody draining").isEqualTo(32);
                });
    }

    @Test
    void shouldRegisterQueueMetricsInTheMeterRegistry() {
        runner().withBean(SimpleMeterRegistry.class).run(context -> {
            context.getBean(QueueTemplate.class).appendText("orders", "four");
            // appended with an appender of its own, not through the template: counted all the same
            context.getBean("orders", MappedQueue.class).acquireAppender().writeBytes(new byte[] {1, 2});
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters.get("cq.queue.appended").tag("queue", "orders").functionCounter().count()).isEqualTo(2);
            assertThat(meters.get("cq.queue.appended.bytes").tag("queue", "orders").functionCounter().count())
                    .isEqualTo(6);
            assertThat(meters.get("cq.queue.last.index").tag("queue", "orders").gauge().value())
                    .isEqualTo(context.getBean("orders", MappedQueue.class).lastIndex());
            MappedQueue orders = context.getBean("orders", MappedQueue.class);
            assertThat((long) meters.get("cq.queue.last.cycle").tag("queue", "orders").gauge().value())
                    .isEqualTo(orders.rollCycle().toCycle(orders.lastIndex()));
            assertThat((long) meters.get("cq.queue.last.sequence").tag("queue", "orders").gauge().value())
                    .isEqualTo(orders.rollCycle().toSequenceNumber(orders.lastIndex()));
            assertThat(meters.get("cq.queue.disk.free").tag("queue", "orders").gauge().value()).isPositive();
        });
    }
}
