package io.cq.benchmarks.jmh;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.QueueDriver;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Path;

/** One thread reading a queue of fixed-size excerpts from start to end, then again from the start. */
@State(Scope.Thread)
public class ReadBenchmark {
    private static final int BATCH = 64;

    @Param({"cq", "chronicle"})
    public String implementation;

    @Param({"40", "96", "1024"})
    public int size;

    private Path directory;
    private QueueDriver driver;
    private byte[] copy;

    @Setup(Level.Trial)
    public void fillQueue() {
        directory = BenchmarkDirectories.create("read-" + implementation);
        driver = QueueDriver.open(implementation, directory);
        byte[] payload = new byte[size];
        copy = new byte[size];
        long count = queueBytes() / size;
        for (long i = 0; i < count; i++) {
            driver.append(i, payload);
        }
        driver.toStart();
    }

    /**
     * Payload bytes in the queue: far more than the caches hold, so every excerpt is read from memory, as a reader
     * catching up on an old queue does.
     */
    protected long queueBytes() {
        return size <= 100 ? 256L << 20 : 1L << 30;
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

    /**
     * The read context around each excerpt, its bytes copied into an array the application keeps: what a reader that
     * hands excerpts on to other code does.
     */
    @Benchmark
    public int readCopy() {
        int length = driver.readCopy(copy);
        if (length < 0) {
            driver.toStart();
            length = driver.readCopy(copy);
        }
        return length + copy[length - 1];
    }

    /**
     * Draining: each library's fastest way to read the excerpts that are there, {@value #BATCH} at a time (cq's
     * {@code poll}; Chronicle Queue, which has no batch read, reads them one by one). Scores are per excerpt.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long readBatch() {
        int left = BATCH;
        while (left > 0) {
            int read = driver.readBatch(left);
            if (read == 0) {
                driver.toStart();
            }
            left -= read;
        }
        return driver.checksum();
    }
}
