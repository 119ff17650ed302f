package io.cq.spring.boot.tracing;

import io.cq.spring.boot.tracing.TracedApplication.Deliveries;
import io.cq.spring.boot.tracing.TracedApplication.Delivery;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trace crosses processes with the queue: a second JVM ({@link TracedWriterMain}) writes an order through its
 * {@code @QueueWriter} inside a span, and this JVM's listener handles it in that trace, as the child of the other
 * process's send span. Nothing connects the two processes but the queue's files.
 */
class TracingAcrossProcessesTest {
    private static final Pattern SENT = Pattern.compile("SENT trace=(\\p{XDigit}+) send=(\\p{XDigit}+)");

    @TempDir
    Path dir;

    @Test
    void shouldHandleAnOrderWrittenByAnotherProcessInsideASpanInThatProcesssTrace() throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(TracedApplication.class)
                .web(WebApplicationType.NONE)
                .properties("cq.base-path=" + dir, "cq.queues.orders.roll-cycle=daily",
                        "cq.queues.fills.roll-cycle=daily", "cq.queues.notes.roll-cycle=daily",
                        "cq.queues.quotes.roll-cycle=daily", "cq.queues.replies.roll-cycle=daily",
                        "management.tracing.sampling.probability=1.0")
                .run()) {
            String java = ProcessHandle.current().info().command().orElseThrow();
            // No --enable-native-access: the writer runs as a plain java -jar application would.
            Process writer = new ProcessBuilder(List.of(java, "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), TracedWriterMain.class.getName(), dir.toString(),
                    "o-remote")).redirectErrorStream(true).start();
            String output = new String(writer.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(writer.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
            assertThat(writer.exitValue()).as(output).isZero();
            Matcher sent = SENT.matcher(output);
            assertThat(sent.find()).as(output).isTrue();

            Delivery delivery = context.getBean(Deliveries.class).await("placed o-remote");

            assertThat(delivery.traceId()).as("the trace of the writing process").isEqualTo(sent.group(1));
            assertThat(delivery.parentId()).as("the writing process's send span").isEqualTo(sent.group(2));
        }
    }
}
