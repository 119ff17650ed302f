package io.cq.cli;

import io.cq.cli.fixtures.Trading;
import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static io.cq.cli.CqCliTest.cq;
import static org.assertj.core.api.Assertions.assertThat;

class MessagesInTheCliTest {
    @TempDir
    Path dir;

    private Path queueWithCalls() {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            Trading.Events events = Messages.methodWriter(appender, Trading.Events.class);
            events.onOrder(new Trading.Order("o-1", "AAPL", 100, 189.25, Trading.Side.BUY));
            events.onCancel("o-1", 42);
            Trading.Tick tick = new Trading.Tick();
            tick.instrument = 7;
            tick.bid = 1.5;
            tick.ask = 1.75;
            events.onTick(tick);
            appender.writeText("plain text between calls");
        }
        return queue;
    }

    @Test
    void shouldShowMethodCallsAsJsonWithoutTheirInterface() {
        Path queue = queueWithCalls();

        CqCliTest.Run run = cq("tail", queue.toString());

        assertThat(run.lines()).hasSize(4);
        assertThat(run.lines().get(0)).isEqualTo(
                "onOrder [{\"id\":\"o-1\",\"symbol\":\"AAPL\",\"quantity\":100,\"price\":189.25,\"side\":\"BUY\"}]");
        assertThat(run.lines().get(1)).isEqualTo("onCancel [\"o-1\",42]");
        assertThat(run.lines().get(2)).startsWith("onTick [{\"selfWrittenHex\":");
        assertThat(run.lines().get(3)).isEqualTo("plain text between calls");
    }

    @Test
    void shouldDecodeSelfWrittenArgumentsWithTheInterfaceGivenByDashR() {
        Path queue = queueWithCalls();

        CqCliTest.Run run = cq("tail", "-r", Trading.Events.class.getName(), queue.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).containsExactly(
                "onOrder [{\"id\":\"o-1\",\"symbol\":\"AAPL\",\"quantity\":100,\"price\":189.25,\"side\":\"BUY\"}]",
                "onCancel [\"o-1\",42]",
                "onTick [{\"ask\":1.75,\"bid\":1.5,\"instrument\":7}]",
                "plain text between calls");
    }

    @Test
    void shouldPrintCallsAsJsonLinesAndFilterOnTheirContent() {
        Path queue = queueWithCalls();

        CqCliTest.Run run = cq("tail", "--format", "json", "-i", "AAPL", queue.toString());

        assertThat(run.lines()).singleElement().satisfies(line -> assertThat(line)
                .matches("\\{\"index\":\"0x[0-9a-f]+\",\"method\":\"onOrder\","
                        + "\"arguments\":\\[\\{\"id\":\"o-1\".*}]}"));
    }

    @Test
    void shouldDumpCallsDecoded() {
        Path queue = queueWithCalls();

        CqCliTest.Run run = cq("dump", queue.toString());

        assertThat(run.out()).contains("onCancel [\"o-1\",42]").contains("\"plain text between calls\"");
    }

    @Test
    void shouldSayWhereToFindAnInterfaceItCannotLoad() throws Exception {
        Path queue = queueWithCalls();
        Path emptyClasses = Files.createDirectories(dir.resolve("classes"));

        CqCliTest.Run run = cq("tail", "-r", "com.example.Missing", "--classpath", emptyClasses.toString(),
                queue.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("cannot load interface com.example.Missing").contains("--classpath");
    }

    @Test
    void shouldRefuseAClassPathEntryThatDoesNotExist() {
        Path queue = queueWithCalls();
        Path missing = dir.resolve("none.jar");

        CqCliTest.Run run = cq("tail", "-r", "com.example.Missing", "--classpath", missing.toString(),
                queue.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("cq tail: --classpath entry " + missing + " does not exist\n");
    }
}
