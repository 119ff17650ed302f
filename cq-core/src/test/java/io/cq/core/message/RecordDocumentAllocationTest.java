package io.cq.core.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.support.AllocatedBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A method reader reading record documents allocates the records and what they hold, and nothing for the reading:
 * no parser, no deserialization context, no copy of the document; a method writer writing them allocates nothing.
 * Counted with the JVM's per-thread allocation counter over 100,000 messages after warm-up.
 */
class RecordDocumentAllocationTest {
    @TempDir
    Path dir;

    public enum Side { BUY, SELL }

    public record Order(String id, String symbol, long quantity, double price, Side side) {
    }

    /** Boxed components, a nested record, a null: the other paths a record takes through the writer. */
    public record Fill(Order order, Integer venue, Double fee, Boolean last, Fill previous) {
    }

    public interface Fills {
        void fill(Fill fill, Object any);
    }

    public interface Orders {
        void order(Order order);
    }

    private static final class Sum implements Orders {
        long quantities;
        long idLengths;

        @Override
        public void order(Order order) {
            quantities += order.quantity();
            idLengths += order.id().length() + order.symbol().length();
        }
    }

    private static final int WARM_UP = 20_000;
    private static final int MESSAGES = 100_000;
    /**
     * The record (40 bytes with compressed class pointers) and its two strings of at most 8 Latin-1 characters
     * (24 + 24 bytes each) come to 136 bytes; what Jackson needs to read one is kilobytes.
     */
    private static final double MOST_PER_MESSAGE = 160;

    /** Below one byte a message: a single object per message would be 16 bytes or more. */
    private static final double MOST_PER_WRITTEN_MESSAGE = 1;

    @Test
    void shouldAllocateNothingToWriteRecords() {
        Order[] orders = new Order[1024];
        for (int i = 0; i < orders.length; i++) {
            orders[i] = new Order("o-" + i, "AAPL", i, 189.25 + i, (i & 1) == 0 ? Side.BUY : Side.SELL);
        }
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(64L << 20).build()) {
            Orders writer = Messages.methodWriter(queue.acquireAppender(), Orders.class);
            for (int i = 0; i < WARM_UP; i++) {
                writer.order(orders[i & 1023]); // class loading, JIT, the blocks mapped
            }

            long before = AllocatedBytes.now();
            for (int i = 0; i < MESSAGES; i++) {
                writer.order(orders[i & 1023]);
            }
            long allocated = AllocatedBytes.since(before);

            Sum sum = new Sum();
            MethodReader reader = Messages.methodReader(queue.createTailer(), sum);
            while (reader.readOne()) {
                // every message reads back
            }
            assertThat(reader.messagesRead()).isEqualTo(WARM_UP + MESSAGES);
            assertThat((double) allocated / MESSAGES).as("bytes allocated per message (%d in all)", allocated)
                    .isLessThan(MOST_PER_WRITTEN_MESSAGE);
        }
    }

    @Test
    void shouldAllocateNothingToWriteNestedRecordsWithBoxedComponentsOrAsObjects() {
        Fill[] fills = new Fill[1024];
        for (int i = 0; i < fills.length; i++) {
            Order order = new Order("o-" + i, "AAPL", i, 189.25 + i, Side.BUY);
            fills[i] = new Fill(order, i, 0.5 * i, (i & 1) == 0, new Fill(order, null, null, null, null));
        }
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(64L << 20).build()) {
            Fills writer = Messages.methodWriter(queue.acquireAppender(), Fills.class);
            for (int i = 0; i < WARM_UP; i++) {
                writer.fill(fills[i & 1023], fills[(i + 1) & 1023].order());
            }

            long before = AllocatedBytes.now();
            for (int i = 0; i < MESSAGES; i++) {
                writer.fill(fills[i & 1023], fills[(i + 1) & 1023].order());
            }
            long allocated = AllocatedBytes.since(before);

            long count = 0;
            try (ExcerptTailer tailer = queue.createTailer()) {
                while (true) {
                    try (ReadContext context = tailer.readingDocument()) {
                        if (!context.isPresent()) {
                            break;
                        }
                        count++;
                    }
                }
            }
            assertThat(count).as("every message published").isEqualTo(WARM_UP + MESSAGES);
            assertThat((double) allocated / MESSAGES).as("bytes allocated per message (%d in all)", allocated)
                    .isLessThan(MOST_PER_WRITTEN_MESSAGE);
        }
    }

    @Test
    void shouldAllocateOnlyTheRecordsItReads() {
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(64L << 20).build()) {
            Orders writer = Messages.methodWriter(queue.acquireAppender(), Orders.class);
            for (int i = 0; i < WARM_UP + MESSAGES; i++) {
                writer.order(new Order("o-" + i, "AAPL", i, 189.25 + i, (i & 1) == 0 ? Side.BUY : Side.SELL));
            }
            Sum sum = new Sum();
            MethodReader reader = Messages.methodReader(queue.createTailer(), sum);
            for (int i = 0; i < WARM_UP; i++) {
                reader.readOne(); // class loading, JIT, the blocks mapped
            }

            long before = AllocatedBytes.now();
            for (int i = 0; i < MESSAGES; i++) {
                reader.readOne();
            }
            long allocated = AllocatedBytes.since(before);

            assertThat(reader.messagesRead()).isEqualTo(WARM_UP + MESSAGES);
            assertThat(sum.quantities).isEqualTo((long) (WARM_UP + MESSAGES) * (WARM_UP + MESSAGES - 1) / 2);
            assertThat((double) allocated / MESSAGES).as("bytes allocated per message (%d in all)", allocated)
                    .isLessThan(MOST_PER_MESSAGE);
        }
    }
}
