package io.cq.benchmarks.codec;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.Payloads;
import io.cq.benchmarks.QueueDriver;
import io.cq.benchmarks.Writeback;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Bytes on disk per message: writes {@code messages} messages of one payload (JSON-like orders or random bytes,
 * {@link Payloads}) and size to a fresh queue of each implementation, closes it, writes the machine's dirty pages
 * back, and measures the queue's files: the blocks allocated to them ({@code st_blocks × 512}, what {@code du}
 * counts) and their lengths (what {@code ls -l} shows), the queue's fixed files (cq's table store, Chronicle's
 * metadata) included. Nothing is timed. Runs in a JVM of its own, with the flags Chronicle Queue needs.
 */
public final class DiskFootprintHarness {
    /** The payloads measured, by the names the report uses. */
    public static final List<String> PAYLOADS = List.of("JSON-like", "random");
    public static final List<Integer> SIZES = List.of(96, 1024);

    /** One queue measured: {@code allocatedBytes} and {@code apparentBytes} of all of its files. */
    public record Result(String implementation, String payload, int size, long messages, long allocatedBytes,
                         long apparentBytes) {
        public double allocatedPerMessage() {
            return (double) allocatedBytes / messages;
        }

        public double apparentPerMessage() {
            return (double) apparentBytes / messages;
        }
    }

    private DiskFootprintHarness() {
    }

    /**
     * Measures every payload and size of {@link #PAYLOADS} and {@link #SIZES} for each implementation, in a new JVM
     * started with {@code jvmArgs}; the queues are made in {@code directory} and deleted after measuring.
     */
    public static List<Result> run(List<String> implementations, long messages, Path directory, List<String> jvmArgs)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), DiskFootprintHarness.class.getName(),
                Long.toString(messages), directory.toString(), String.join(",", implementations)));
        Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<Result> results = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("result ")) {
                    String[] f = line.split(" ");
                    results.add(new Result(f[1], f[2], Integer.parseInt(f[3]), Long.parseLong(f[4]),
                            Long.parseLong(f[5]), Long.parseLong(f[6])));
                } else {
                    System.out.println(line);
                }
            }
        }
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new IllegalStateException("disk footprint run did not end");
        }
        if (child.exitValue() != 0) {
            throw new IllegalStateException("disk footprint run failed (exit " + child.exitValue() + ")");
        }
        return results;
    }

    /** {@code <messages> <directory> <implementation,...>}: prints one {@code result ...} line per queue. */
    public static void main(String[] args) throws IOException, InterruptedException {
        long messages = Long.parseLong(args[0]);
        Path base = Path.of(args[1]);
        Files.createDirectories(base);
        for (String payload : PAYLOADS) {
            for (int size : SIZES) {
                for (String implementation : args[2].split(",")) {
                    Result result = measure(implementation, payload, size, messages, base);
                    System.out.println("result " + result.implementation() + " " + result.payload() + " "
                            + result.size() + " " + result.messages() + " " + result.allocatedBytes() + " "
                            + result.apparentBytes());
                }
            }
        }
    }

    static Result measure(String implementation, String payload, int size, long messages, Path base)
            throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory(base, "footprint-" + implementation);
        try {
            try (QueueDriver driver = QueueDriver.open(implementation, directory)) {
                for (long n = 0; n < messages; n++) {
                    byte[] bytes = payload.equals("random") ? Payloads.random(n, size) : Payloads.order(n, size);
                    driver.append(Payloads.head(bytes), bytes);
                }
            }
            // Blocks are counted once written back (delayed allocation may count them otherwise until then).
            Writeback.syncAll();
            long[] usage = usage(directory);
            return new Result(implementation, payload, size, messages, usage[0], usage[1]);
        } finally {
            Directories.delete(directory);
        }
    }

    /** Allocated and apparent bytes of the directory's regular files, from {@code stat}: st_blocks × 512, st_size. */
    private static long[] usage(Path directory) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("stat", "--format=%b %B %s"));
        try (Stream<Path> files = Files.walk(directory)) {
            files.filter(Files::isRegularFile).forEach(file -> command.add(file.toString()));
        }
        Process stat = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(stat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!stat.waitFor(30, TimeUnit.SECONDS) || stat.exitValue() != 0) {
            throw new IllegalStateException("stat of " + directory + " failed: " + out);
        }
        long allocated = 0;
        long apparent = 0;
        for (String line : out.strip().split("\n")) {
            String[] f = line.trim().split(" ");
            allocated += Long.parseLong(f[0]) * Long.parseLong(f[1]);
            apparent += Long.parseLong(f[2]);
        }
        return new long[] {allocated, apparent};
    }
}
