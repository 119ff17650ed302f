package io.cq.core.message;

import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MessageHistoryTest {
    @TempDir
    Path dir;

    public interface Quotes {
        void quote(String symbol, double price);
    }

    /** Reads one queue and writes every quote on to the next, like a service in a chain. */
    private static MethodReader relay(MappedQueue from, MappedQueue to, int toSourceId) {
        Quotes next = Messages.methodWriterBuilder(to.acquireAppender(), Quotes.class).sourceId(toSourceId).build();
        return Messages.methodReaderBuilder(from.createTailer()).handlers((Quotes) next::quote).history(true).build();
    }

    /** What the last reader of a quote sent through two relays saw of its history, and where the quote was. */
    private record SeenAtTheEnd(List<String> sources, List<Long> timings, List<String> indexes) {
    }

    /** Writes a quote to q1, relays it to q2 and on to q3, and reads it there with history asked for. */
    private SeenAtTheEnd quoteThroughTwoRelays() {
        try (MappedQueue q1 = MappedQueue.builder(dir.resolve("q1")).build();
             MappedQueue q2 = MappedQueue.builder(dir.resolve("q2")).build();
             MappedQueue q3 = MappedQueue.builder(dir.resolve("q3")).build()) {
            Quotes producer = Messages.methodWriterBuilder(q1.acquireAppender(), Quotes.class).sourceId(1).build();
            producer.quote("EURUSD", 1.0875);
            long indexInQ1 = q1.lastIndex();

            assertThat(relay(q1, q2, 2).readOne()).isTrue();
            assertThat(relay(q2, q3, 3).readOne()).isTrue();

            List<String> sources = new ArrayList<>();
            List<Long> timings = new ArrayList<>();
            Quotes last = (symbol, price) -> {
                MessageHistory history = MessageHistory.current();
                for (int i = 0; i < history.sourceCount(); i++) {
                    sources.add(history.sourceId(i) + "@" + history.sourceIndex(i));
                }
                for (int i = 0; i < history.timingCount(); i++) {
                    timings.add(history.timing(i));
                }
            };
            assertThat(Messages.methodReaderBuilder(q3.createTailer()).handlers(last).history(true).build().readOne())
                    .isTrue();
            return new SeenAtTheEnd(sources, timings, List.of("1@" + indexInQ1, "2@" + q2.lastIndex(),
                    "3@" + q3.lastIndex()));
        }
    }

    @Test
    void shouldRecordEverySourceAcrossTwoRelays() {
        SeenAtTheEnd seen = quoteThroughTwoRelays();

        assertThat(seen.sources()).containsExactlyElementsOf(seen.indexes());
    }

    @Test
    void shouldRecordATimingForEveryWriteAndReadAcrossTwoRelays() {
        SeenAtTheEnd seen = quoteThroughTwoRelays();

        // write q1, read q1, write q2, read q2, write q3, read q3
        assertThat(seen.timings()).hasSize(6).isSorted();
        assertThat(seen.timings().get(5) - seen.timings().get(0)).isPositive();
    }

    @Test
    void shouldClearTheHistoryOnceTheHandlerReturned() {
        quoteThroughTwoRelays();

        assertThat(MessageHistory.current().isEmpty()).as("cleared once the handler returned").isTrue();
    }

    /** Reads every quote with a reader that does not ask for history, as "symbol sourceCount". */
    private static List<String> readSourceCounts(MappedQueue queue) {
        List<String> seen = new ArrayList<>();
        Quotes handler = (symbol, price) -> seen.add(symbol + " " + MessageHistory.current().sourceCount());
        MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
        while (reader.readOne()) {
            // drain
        }
        return seen;
    }

    @Test
    void shouldWriteNoHistoryWithoutASourceId() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Quotes.class).quote("A", 1);
            assertThat(readSourceCounts(queue)).containsExactly("A 0");
        }
    }

    @Test
    void shouldIgnoreHistoryWhenTheReaderDoesNotAskForIt() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriterBuilder(queue.acquireAppender(), Quotes.class).sourceId(9).build().quote("B", 2);
            assertThat(readSourceCounts(queue)).containsExactly("B 0");
        }
    }
}
