package io.cq.benchmarks;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What a JMH append iteration is made of, 100 ms at a time (docs/performance.md, "1 KiB appends and large folios"):
 * rounds like {@code AppendBenchmark}'s iterations, each into a fresh queue, closed and deleted after it, with the
 * excerpts appended in each tenth of the round counted apart. A round lasts one second, as a JMH iteration does, or
 * appends a fixed volume, the same bytes for either library. Before the rounds, it can time the first and the second
 * touch of a stretch of anonymous memory, page by page: on a VM whose host backs guest memory only when it is first
 * touched (and takes freed memory back), the first costs several times the second, and an append rate that falls
 * to the same few hundred MB/s for both libraries once past what the round before freed is that cost, not theirs.
 *
 * <p>Arguments: {@code cq|chronicle size rounds [<n>s|MiB-per-round] [touch-GiB]}, a round of {@code 1s} by
 * default; for example {@code chronicle 1024 8 1s 8} (8 GiB touched first) or {@code cq 1024 8 1024}. Run with
 * the forked JVM flags of the suite ({@link ChronicleDriver#JVM_ARGS}, and {@code --enable-native-access=ALL-UNNAMED}
 * for cq). Each round's line ends with how long closing the queue and deleting its directory took, the time between
 * two JMH iterations; {@code -Dtimeline.pauseMillis=<n>} waits that much longer before the next round, to show what
 * that time costs the next round (docs/performance.md, "What a C writer reaches in the same rounds").
 */
public final class AppendTimeline {
    private static final int SLOTS = 10;
    private static final long PAGE = 4096;

    private AppendTimeline() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: AppendTimeline cq|chronicle size rounds [<n>s|MiB-per-round] [touch-GiB]");
            System.exit(2);
        }
        String implementation = args[0];
        int size = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        String length = args.length > 3 ? args[3] : "1s";
        long volume = length.endsWith("s") ? 0 : Long.parseLong(length) << 20;
        long nanos = length.endsWith("s") ? Long.parseLong(length.substring(0, length.length() - 1)) * 1_000_000_000L
                : Long.MAX_VALUE;
        if (args.length > 4 && Integer.parseInt(args[4]) > 0) {
            long bytes = Long.parseLong(args[4]) << 30;
            System.out.printf(Locale.ROOT, "anonymous memory, %d GiB: first touch %.2f us/page, second %.2f us/page%n",
                    bytes >> 30, touchMicrosPerPage(bytes), touchMicrosPerPage(bytes));
        }
        long pauseMillis = Long.getLong("timeline.pauseMillis", 0);
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
        for (int round = 0; round < rounds; round++) {
            Path directory = Files.createTempDirectory("append-timeline-" + implementation);
            QueueDriver driver = QueueDriver.open(implementation, directory);
            long[] perTenth = new long[SLOTS];
            long faultsBefore = minorFaultsOfThisThread();
            long appended = 0;
            long start = System.nanoTime();
            long elapsed = 0;
            while (volume > 0 ? appended * size < volume : elapsed < nanos) {
                for (int k = 0; k < 256; k++) {
                    driver.append(appended++, payload);
                }
                elapsed = System.nanoTime() - start;
                if (volume == 0) {
                    perTenth[(int) Math.min(SLOTS - 1, elapsed / (nanos / SLOTS))] += 256;
                }
            }
            long faults = minorFaultsOfThisThread() - faultsBefore;
            long closing = System.nanoTime();
            driver.close();
            long deleting = System.nanoTime();
            Directories.delete(directory);
            long deleted = System.nanoTime();
            StringBuilder tenths = new StringBuilder();
            for (long count : perTenth) {
                tenths.append(String.format(Locale.ROOT, " %.2f", count * SLOTS * 1e3 / nanos));
            }
            double mebibytes = appended * (double) size / (1 << 20);
            String faultsPerMebibyte = faults < 0 ? "?" : String.format(Locale.ROOT, "%.1f", faults / mebibytes);
            System.out.printf(Locale.ROOT, "%s %d B round %d: %.2fM excerpts/s, %.2f GB in %.3f s, %s page faults "
                    + "of the appending thread per MiB%s; then closed in %.1f ms and deleted in %.1f ms%n",
                    implementation, size, round, appended * 1e3 / elapsed, appended * (double) size / 1e9,
                    elapsed / 1e9, faultsPerMebibyte, volume > 0 ? "" : "; per tenth (M/s):" + tenths,
                    (deleting - closing) / 1e6, (deleted - deleting) / 1e6);
            if (pauseMillis > 0) {
                Thread.sleep(pauseMillis);
            }
        }
    }

    /** The calling thread's minor page faults so far (Linux), or -1 where they cannot be read. */
    private static long minorFaultsOfThisThread() {
        try {
            String stat = Files.readString(Path.of("/proc/thread-self/stat"));
            // Field 10 (minflt); the fields after the command name, which is in parentheses, start at field 3.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[7]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Writes one byte in each page of a fresh stretch of anonymous memory, and frees it. */
    private static double touchMicrosPerPage(long bytes) {
        try (Arena arena = Arena.ofConfined()) {
            // Arena.allocate zeroes what it returns: that zeroing is the touch, timed with the loop after it.
            long start = System.nanoTime();
            MemorySegment memory = arena.allocate(bytes, PAGE);
            for (long at = 0; at < bytes; at += PAGE) {
                memory.set(ValueLayout.JAVA_BYTE, at, (byte) 1);
            }
            return (System.nanoTime() - start) / 1e3 / (bytes / PAGE);
        }
    }
}
