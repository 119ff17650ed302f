package io.cq.core.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;

import java.nio.file.Path;

/**
 * The other JVM of {@link RecordTypesTest}: {@code write <dir> <count>} writes quotes and trades through a method
 * writer; {@code read <dir> <index>} reads from that index on with records of other versions (by name, from the
 * queue's record types file) and prints what it read and how the first excerpt renders.
 */
public final class RecordTypesProcess {
    public record Quote(String symbol, double bid, double ask, long bidSize, long askSize) {
    }

    public record Trade(String symbol, long quantity) {
    }

    public record Level(double price, int size) {
    }

    public interface Market {
        void quote(Quote quote);

        void trade(Trade trade);

        void level(Level level);
    }

    /** Another version of the quote: components dropped, reordered, one added. */
    public record QuoteV2(long askSize, String symbol, String venue) {
    }

    public interface MarketV2 {
        void quote(QuoteV2 quote);

        void trade(Trade trade);

        void level(Level level);
    }

    private RecordTypesProcess() {
    }

    public static void main(String[] args) {
        Path directory = Path.of(args[1]);
        long argument = Long.parseLong(args[2]);
        try (MappedQueue queue = MappedQueue.builder(directory).build()) {
            if (args[0].equals("write")) {
                Market writer = Messages.methodWriter(queue.acquireAppender(), Market.class);
                System.out.println("writing");
                for (int i = 0; i < argument; i++) {
                    writer.quote(new Quote("C" + i, i, i + 0.5, i, 2L * i));
                    writer.trade(new Trade("C" + i, i));
                }
                System.out.println("written");
            } else {
                read(queue, argument);
            }
        }
    }

    private static void read(MappedQueue queue, long index) {
        long[] counts = new long[3];
        long[] askSizes = new long[1];
        boolean[] venues = new boolean[1];
        MarketV2 handler = new MarketV2() {
            @Override
            public void quote(QuoteV2 quote) {
                counts[0]++;
                askSizes[0] += quote.askSize();
                venues[0] |= quote.venue() != null || quote.symbol() == null;
            }

            @Override
            public void trade(Trade trade) {
                counts[1]++;
            }

            @Override
            public void level(Level level) {
                counts[2]++;
            }
        };
        try (ExcerptTailer tailer = queue.createTailer()) {
            if (!tailer.moveToIndex(index)) {
                throw new IllegalStateException("no excerpt at " + Long.toHexString(index));
            }
            MethodReader reader = Messages.methodReader(tailer, handler);
            while (reader.readOne()) {
                // to the end
            }
        }
        try (ExcerptTailer tailer = queue.createTailer()) {
            tailer.moveToIndex(index);
            try (ReadContext context = tailer.readingDocument()) {
                System.out.println("rendered " + ExcerptRendering.text(context.bytes(), true));
            }
        }
        System.out.println("quotes " + counts[0] + " trades " + counts[1] + " levels " + counts[2] + " askSizes "
                + askSizes[0] + (venues[0] ? " (a venue or a missing symbol)" : ""));
    }
}
