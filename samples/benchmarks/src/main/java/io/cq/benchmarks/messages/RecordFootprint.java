package io.cq.benchmarks.messages;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.Writeback;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes on disk per record message, cq against Chronicle in one run: {@code messages} five-field quotes written
 * through each library's method writer (cq: a record, written as a document; Chronicle: a
 * {@code SelfDescribingMarshallable} DTO, its field names on the wire like cq's), the queue closed, dirty pages
 * written back, then {@code du --block-size=1 -s} of the queue's directory divided by the count. Usage:
 * {@code RecordFootprint [messages] [directory]}.
 */
public final class RecordFootprint {
    private static final String[] SYMBOLS = {"AAPL", "MSFT", "GOOG", "AMZN", "NVDA", "META", "TSLA", "BRK.B"};

    private RecordFootprint() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int messages = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path base = Path.of(args.length > 1 ? args[1] : System.getProperty("java.io.tmpdir"));
        Path cq = Files.createTempDirectory(base, "footprint-cq");
        Path chronicle = Files.createTempDirectory(base, "footprint-chronicle");
        try {
            try (MappedQueue queue = MappedQueue.builder(cq).build()) {
                QuoteEvents writer = Messages.methodWriter(queue.acquireAppender(), QuoteEvents.class);
                for (int i = 0; i < messages; i++) {
                    writer.quote(new Quote(SYMBOLS[i & 7], bid(i), bid(i) + 0.01, size(i), size(i + 1)));
                }
            }
            try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.single(chronicle.toString())
                    .rollCycle(RollCycles.FAST_DAILY).build()) {
                QuoteDtoEvents writer = queue.createAppender().methodWriter(QuoteDtoEvents.class);
                QuoteDto quote = new QuoteDto();
                for (int i = 0; i < messages; i++) {
                    quote.symbol = SYMBOLS[i & 7];
                    quote.bid = bid(i);
                    quote.ask = bid(i) + 0.01;
                    quote.bidSize = size(i);
                    quote.askSize = size(i + 1);
                    writer.quote(quote);
                }
            }
            Writeback.syncAll();
            report("cq", cq, messages);
            report("chronicle", chronicle, messages);
        } finally {
            Directories.delete(cq);
            Directories.delete(chronicle);
        }
    }

    /** Prices with cents, as quotes have: not exact in binary, so a double's eight bytes in either library. */
    private static double bid(int i) {
        return 100 + (i % 10_000) * 0.01;
    }

    private static long size(int i) {
        return 100 * (1 + i % 50);
    }

    private static void report(String implementation, Path directory, int messages)
            throws IOException, InterruptedException {
        Process du = new ProcessBuilder("du", "--block-size=1", "-s", directory.toString()).start();
        String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        du.waitFor();
        long bytes = Long.parseLong(out.split("\\s+")[0]);
        System.out.printf("%s: %d bytes on disk for %d quotes, %.1f B per message%n", implementation, bytes,
                messages, (double) bytes / messages);
    }
}
