package io.cq.spring.console;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.message.Messages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Record messages hold their values only, their field names being in the queue's record types file: the console
 * shows them with their names although its JVM never wrote or read that record type (another process wrote them).
 */
class ConsoleRecordTypesTest {
    @TempDir
    Path dir;

    /** Written in a child JVM only: this JVM never makes a method writer or reader of it. */
    public record ConsoleQuote(String consoleSymbol, double consoleBid, long consoleSize) {
    }

    public interface ConsoleQuotes {
        void onConsoleQuote(ConsoleQuote quote);
    }

    /** The child JVM: writes two quotes through a method writer. */
    public static final class QuoteWriter {
        public static void main(String[] args) {
            try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).rollCycle(RollCycle.DAILY).build();
                 ExcerptAppender appender = queue.createAppender()) {
                ConsoleQuotes quotes = Messages.methodWriter(appender, ConsoleQuotes.class);
                quotes.onConsoleQuote(new ConsoleQuote("EURUSD", 1.0841, 1_000_000));
                quotes.onConsoleQuote(new ConsoleQuote("GBPJPY", 187.25, 250_000));
            }
        }
    }

    private void writeInAnotherJvm() throws Exception {
        // Without --enable-native-access, as `java -jar` runs a service: the types file needs none.
        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "-cp", System.getProperty("java.class.path"),
                QuoteWriter.class.getName(), dir.toString()).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as(output).isZero();
    }

    @Test
    void shouldShowRecordMessagesWrittenByAnotherProcessWithTheirFieldNames() throws Exception {
        writeInAnotherJvm();
        assertThat(dir.resolve("message-types.cq4m")).as("the record types file").exists();

        List<ExcerptView> excerpts;
        try (MappedQueue queue = MappedQueue.builder(dir).readOnly(true).build()) {
            excerpts = new ExcerptPages(50, 4096).read("quotes", queue,
                    new ExcerptPages.Request(ExcerptPages.From.START, -1, null, 50), false, true).excerpts();
        }

        assertThat(excerpts).hasSize(2);
        assertThat(excerpts.getFirst().summary()).isEqualTo(
                "onConsoleQuote [{\"consoleSymbol\":\"EURUSD\",\"consoleBid\":1.0841,\"consoleSize\":1000000}]");
        assertThat(excerpts.get(1).json()).contains("\"consoleSymbol\":\"GBPJPY\"", "\"consoleSize\":250000");
    }
}
