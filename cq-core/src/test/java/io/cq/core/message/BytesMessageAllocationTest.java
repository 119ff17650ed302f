package io.cq.core.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.MappedQueue;
import io.cq.core.support.AllocatedBytes;
import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

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
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(64L << 20).build()) {
            Ticks writer = Messages.methodWriter(queue.acquireAppender(), Ticks.class);
            Sum sum = new Sum();
            MethodReader reader = Messages.methodReader(queue.createTailer(), sum);
            Tick tick = new Tick();
            roundTrips(writer, reader, tick, 20_000); // warm-up: class loading, JIT, first blocks mapped

            long before = AllocatedBytes.now();
            roundTrips(writer, reader, tick, MESSAGES);
            long allocated = AllocatedBytes.since(before);

            assertThat(reader.messagesRead()).isEqualTo(2L * (20_000 + MESSAGES));
            assertThat(sum.instruments).isPositive();
            // 2 messages per round trip; a few stray bytes (e.g. a new block mapped) are tolerated, not one object each
            assertThat((double) allocated / (2 * MESSAGES)).as("bytes allocated per message (%d in all)", allocated)
                    .isLessThan(1.0);
        }
    }

    /** A quote with its symbol as text, read into one reused builder: what a hot message with text looks like. */
    public static final class Quote implements BytesMessage {
        final StringBuilder symbol = new StringBuilder();
        double bid;
        double ask;
        long bidSize;
        long askSize;

        @Override
        public void writeTo(ExcerptBytes bytes) {
            bytes.writeUtf8(symbol).writeDouble(bid).writeDouble(ask).writeLong(bidSize).writeLong(askSize);
        }

        @Override
        public void readFrom(ExcerptBytes bytes) {
            symbol.setLength(0);
            bytes.readUtf8(symbol);
            bid = bytes.readDouble();
            ask = bytes.readDouble();
            bidSize = bytes.readLong();
            askSize = bytes.readLong();
        }
    }

    public interface Quotes {
        void quote(Quote quote);
    }

    /**
     * Reads alone, as a consumer does: a queue written and closed before, opened again, read by a lambda handler
     * after warm-up. (An outside harness reported 24 B per read here; this run counts 0.)
     */
    @Test
    void shouldReadSelfWrittenMessagesOfAQueueWrittenBeforeWithoutAllocating() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Quotes writer = Messages.methodWriter(queue.acquireAppender(), Quotes.class);
            Quote quote = new Quote();
            quote.symbol.append("AAPL");
            for (int i = 0; i < 20_000 + MESSAGES; i++) {
                quote.bid = 189.25 + i;
                quote.bidSize = i;
                writer.quote(quote);
            }
        }
        long[] sizes = new long[1];
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            MethodReader reader = Messages.methodReader(queue.createTailer(),
                    (Quotes) q -> sizes[0] += q.bidSize + q.symbol.length());
            for (int i = 0; i < 20_000; i++) {
                reader.readOne(); // class loading, JIT, the blocks mapped
            }

            long before = AllocatedBytes.now();
            for (int i = 0; i < MESSAGES; i++) {
                reader.readOne();
            }
            long allocated = AllocatedBytes.since(before);

            assertThat(reader.messagesRead()).isEqualTo(20_000 + MESSAGES);
            assertThat(sizes[0]).isEqualTo((long) (20_000 + MESSAGES) * (20_000 + MESSAGES - 1) / 2
                    + 4L * (20_000 + MESSAGES));
            assertThat((double) allocated / MESSAGES).as("bytes allocated per message read (%d in all)", allocated)
                    .isLessThan(1.0);
        }
    }

    /**
     * Following a writer in another process, the reader keeps meeting records still being written, where it once
     * boxed the cycle for each poll (CycleListing.nextCycle): 0.15 to 4.6 B per message read, now 0.02.
     */
    @Test
    void shouldFollowAWriterInAnotherProcessWithoutAllocating() throws Exception {
        try (ChildJvm writer = ChildJvm.start(TickWriterProcess.class, dir.toString())) {
            writer.awaitLine("writing", 60, TimeUnit.SECONDS);
            try (MappedQueue queue = MappedQueue.builder(dir).build()) {
                Sum sum = new Sum();
                MethodReader reader = Messages.methodReader(queue.createTailer(), sum);
                readLive(reader, 200_000); // class loading, JIT, the blocks mapped

                long before = AllocatedBytes.now();
                readLive(reader, 2 * MESSAGES);
                long allocated = AllocatedBytes.since(before);

                assertThat(reader.messagesRead()).isEqualTo(200_000 + 2 * MESSAGES);
                assertThat((double) allocated / (2 * MESSAGES))
                        .as("bytes allocated per message read (%d in all)", allocated).isLessThan(1.0);
            } finally {
                writer.send("stop");
            }
            assertThat(writer.awaitExit(60, TimeUnit.SECONDS)).isZero();
        }
    }

    private static void readLive(MethodReader reader, int messages) {
        for (int read = 0; read < messages; ) {
            if (reader.readOne()) {
                read++;
            }
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
