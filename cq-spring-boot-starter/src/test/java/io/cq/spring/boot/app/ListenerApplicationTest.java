package io.cq.spring.boot.app;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.listener.DeadLetter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The whole application started as {@code main} would start it, on queues in a temporary directory. */
@ExtendWith(OutputCaptureExtension.class)
class ListenerApplicationTest {
    @TempDir
    Path dir;

    private ConfigurableApplicationContext start(String... extraProperties) {
        List<String> properties = new ArrayList<>(List.of("cq.base-path=" + dir, "cq.queues.orders.roll-cycle=hourly",
                "cq.queues.orders-dlq.durability=page-cache", "cq.listener.retry.interval=5ms",
                "cq.listener.retry.max-attempts=3", "cq.listener.recoverer=dead-letter",
                "cq.listener.dead-letter-queue=orders-dlq"));
        properties.addAll(List.of(extraProperties));
        return new SpringApplicationBuilder(ListenerApplication.class).web(WebApplicationType.NONE)
                .properties(properties.toArray(String[]::new)).run();
    }

    @Test
    void shouldResumeExactlyAfterTheLastProcessedExcerptAfterARestart() {
        try (ConfigurableApplicationContext first = start()) {
            QueueTemplate template = first.getBean(QueueTemplate.class);
            for (int i = 1; i <= 5; i++) {
                template.appendText("orders", "order-" + i);
            }
            var billing = first.getBean(ListenerApplication.Billing.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> billing.billed.size() == 5);
            assertThat(billing.billed).containsExactly("order-1", "order-2", "order-3", "order-4", "order-5");
        }
        // Appended while the application is down: the listener must start with exactly these.
        try (MappedQueue orders = MappedQueue.builder(dir.resolve("orders")).build()) {
            orders.acquireAppender().writeText("order-6");
            orders.acquireAppender().writeText("order-7");
        }
        try (ConfigurableApplicationContext second = start()) {
            var billing = second.getBean(ListenerApplication.Billing.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> billing.billed.size() == 2);
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2))
                    .until(() -> billing.billed.size() == 2);
            assertThat(billing.billed).containsExactly("order-6", "order-7");
        }
    }

    @Test
    void shouldRetryAFailingExcerptThenMoveItToTheDeadLetterQueue() {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            template.appendText("orders", "order-1");
            long poison = template.appendText("orders", "poison-2");
            template.appendText("orders", "order-3");
            var billing = context.getBean(ListenerApplication.Billing.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> billing.billed.size() == 2);
            assertThat(billing.billed).containsExactly("order-1", "order-3");
            var container = context.getBean(ListenerContainerRegistry.class).container("billing");
            assertThat(container.retryCount()).isEqualTo(2);
            assertThat(container.failedCount()).isEqualTo(1);
            try (ExcerptTailer dlq = context.getBean("orders-dlq", MappedQueue.class).createTailer();
                 ReadContext excerpt = dlq.readingDocument()) {
                DeadLetter letter = DeadLetter.readFrom(excerpt.bytes());
                assertThat(letter).usingRecursiveComparison().ignoringFields("payload").isEqualTo(new DeadLetter(
                        "orders", poison, "billing", IllegalArgumentException.class.getName(), "cannot bill poison-2",
                        new byte[0]));
                assertThat(new String(letter.payload(), StandardCharsets.UTF_8)).isEqualTo("poison-2");
            }
        }
    }

    @Test
    void shouldFailStartUpWithTheAnalysisOfAWrongProperty(CapturedOutput output) {
        assertThatThrownBy(() -> start("cq.queues.orders.block-size=5000B")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("The cq property 'cq.queues.orders.block-size' has the value '5000B': a block size must be a "
                        + "multiple of 4096 bytes and at least 132KB for roll cycle HOURLY (the default is 64MB)")
                .contains("Set cq.queues.orders.block-size to a multiple of 4KB of at least 132KB, e.g. 132KB.");
    }
}
