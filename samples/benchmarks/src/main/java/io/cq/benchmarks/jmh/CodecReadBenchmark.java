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
 * {@link ReadBenchmark}'s one-read-context-per-excerpt loop with excerpt codecs: one thread reads a queue of
 * JSON-like orders ({@link Payloads#order}, 256 MiB of them unless {@value #QUEUE_MIB_PROPERTY} says otherwise, more
 * than the caches hold) from start to end, then again from the start; each excerpt is checked and decoded as a
 * tailer of that queue does.
 */
@State(Scope.Thread)
public class CodecReadBenchmark {
    /** The system property of a fork that sets the payload MiB in the queue (256 unless set). */
    public static final String QUEUE_MIB_PROPERTY = "cq.bench.codecs.queueMiB";

    @Param({"cq", "cq-crc", "cq-lz4", "cq-deflate", "cq-aes", "cq-aes-lz4", "chronicle"})
    public String implementation;

    @Param({"40", "96", "1024"})
    public int size;

    private Path directory;
    private QueueDriver driver;

    @Setup(Level.Trial)
    public void fillQueue() {
        directory = BenchmarkDirectories.create("codec-read-" + implementation);
        driver = QueueDriver.open(implementation, directory);
        byte[][] payloads = Payloads.orders(CodecAppendBenchmark.MESSAGES, size);
        long count = (Long.getLong(QUEUE_MIB_PROPERTY, 256) << 20) / size;
        for (long n = 0; n < count; n++) {
            byte[] payload = payloads[(int) (n & (CodecAppendBenchmark.MESSAGES - 1))];
            driver.append(Payloads.head(payload), payload);
        }
        driver.toStart();
    }

    @TearDown(Level.Trial)
    public void deleteQueue() {
        driver.close();
        Directories.delete(directory);
    }

    @Benchmark
    public long read() {
        long value = driver.read();
        if (value < 0) {
            driver.toStart();
            value = driver.read();
        }
        return value;
    }
}
