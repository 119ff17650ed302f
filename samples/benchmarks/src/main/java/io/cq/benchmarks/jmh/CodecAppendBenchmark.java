package io.cq.benchmarks.jmh;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.Payloads;
import io.cq.benchmarks.QueueDriver;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Path;

/**
 * {@link AppendBenchmark} with excerpt codecs (docs/codecs.md): one thread appending JSON-like orders of a fixed
 * size ({@link Payloads#order}), {@value #MESSAGES} different ones in turn, to plain cq, cq with each codec and
 * Chronicle Queue. Each iteration starts a fresh queue.
 */
@State(Scope.Thread)
public class CodecAppendBenchmark {
    /** Different messages appended in turn: a power of two, and at 1 KiB no more than the caches hold. */
    public static final int MESSAGES = 1024;

    @Param({"cq", "cq-crc", "cq-lz4", "cq-deflate", "cq-aes", "cq-aes-lz4", "chronicle"})
    public String implementation;

    @Param({"40", "96", "1024"})
    public int size;

    private Path directory;
    private QueueDriver driver;
    private byte[][] payloads;
    private long[] heads;
    private int next;

    @Setup(Level.Trial)
    public void makePayloads() {
        payloads = Payloads.orders(MESSAGES, size);
        heads = new long[MESSAGES];
        for (int i = 0; i < MESSAGES; i++) {
            heads[i] = Payloads.head(payloads[i]);
        }
    }

    @Setup(Level.Iteration)
    public void openQueue() {
        directory = BenchmarkDirectories.create("codec-append-" + implementation);
        driver = QueueDriver.open(implementation, directory);
    }

    @TearDown(Level.Iteration)
    public void deleteQueue() {
        driver.close();
        Directories.delete(directory);
    }

    /** Appends the next message: its first 8 bytes as the driver's value, so the excerpt is the payload's bytes. */
    @Benchmark
    public long append() {
        int i = next++ & (MESSAGES - 1);
        return driver.append(heads[i], payloads[i]);
    }
}
