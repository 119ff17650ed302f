package io.cq.benchmarks.jmh;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.QueueDriver;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.nio.file.Path;

/** Random access: {@code moveToIndex} to a random excerpt of a queue of 10 million 40-byte excerpts. */
@State(Scope.Thread)
public class MoveToIndexBenchmark {
    @Param({"cq", "chronicle"})
    public String implementation;

    @Param({"10000000"})
    public int excerpts;

    private Path directory;
    private QueueDriver driver;
    private long[] indexes;
    private long random = 0x9E3779B97F4A7C15L;

    @Setup(Level.Trial)
    public void fillQueue() {
        directory = BenchmarkDirectories.create("seek-" + implementation);
        driver = QueueDriver.open(implementation, directory);
        indexes = new long[excerpts];
        byte[] payload = new byte[40];
        for (int i = 0; i < excerpts; i++) {
            indexes[i] = driver.append(i, payload);
        }
    }

    @TearDown(Level.Trial)
    public void deleteQueue() {
        driver.close();
        Directories.delete(directory);
    }

    @Benchmark
    public boolean moveToIndex() {
        long x = random;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        random = x;
        return driver.moveToIndex(indexes[(int) Long.remainderUnsigned(x, indexes.length)]);
    }
}
