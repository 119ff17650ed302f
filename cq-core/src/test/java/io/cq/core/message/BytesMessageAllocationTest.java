package io.cq.core.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fast path allocates nothing per message: counted with the JVM's per-thread allocation counter around
 * 100,000 writes and reads after warm-up (allocation, not timing, so the result does not depend on the machine).
 */
class BytesMessageAllocationTest {
    @TempDir
    Path dir;

    /** A hot message that writes and reads itself; the reader reuses one instance. */
    public static final class Tick implements BytesMessage {
        long instrument;
        double bid;
        double ask;
        int size;

        @Override
        public void writeTo(ExcerptBytes bytes) {
            bytes.writeLong(instrument).writeDouble(bid).writeDouble(ask).writeInt(size);
        }

        @Override
        public void readFrom(ExcerptBytes bytes) {
            instrument = bytes.readLong();
            bid = bytes.readDouble();
            ask = bytes.readDouble();
            size = bytes.readInt();
        }
    }

    public interface Ticks {
        void tick(Tick tick);

        void level(long instrument, double price, int size, boolean bid);
    }

    private static final class Sum implements Ticks {
        long instruments;
        double prices;

        @Override
        public void tick(Tick tick) {
            instruments += tick.instrument;
            prices += tick.bid + tick.ask;
        }

        @Override
        public void level(long instrument, double price, int size, boolean bid) {
            instruments += instrument;
            prices += price;
        }
    }

    private static final int MESSAGES = 100_000;

    @Test
    void shouldWriteAndReadSelfWrittenMessagesAndPrimitivesWithoutAllocating() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(64L << 20).build()) {
            Ticks writer = Messages.methodWriter(queue.acquireAppender(), Ticks.class);
            Sum sum = new Sum();
            MethodReader reader = Messages.methodReader(queue.createTailer(), sum);
            Tick tick = new Tick();
            roundTrips(writer, reader, tick, 20_000); // warm-up: class loading, JIT, first blocks mapped

            long thread = Thread.currentThread().threadId();
            long before = threads.getThreadAllocatedBytes(thread);
            roundTrips(writer, reader, tick, MESSAGES);
            long allocated = threads.getThreadAllocatedBytes(thread) - before;

            assertThat(reader.messagesRead()).isEqualTo(2L * (20_000 + MESSAGES));
            assertThat(sum.instruments).isPositive();
            // 2 messages per round trip; a few stray bytes (e.g. a new block mapped) are tolerated, not one object each
            assertThat((double) allocated / (2 * MESSAGES)).as("bytes allocated per message (%d in all)", allocated)
                    .isLessThan(1.0);
        }
    }

    private static void roundTrips(Ticks writer, MethodReader reader, Tick tick, int count) {
        for (int i = 0; i < count; i++) {
            tick.instrument = i;
            tick.bid = i * 0.5;
            tick.ask = i * 0.5 + 0.25;
            tick.size = i;
            writer.tick(tick);
            writer.level(i, i * 0.25, i, (i & 1) == 0);
            reader.readOne();
            reader.readOne();
        }
    }
}
