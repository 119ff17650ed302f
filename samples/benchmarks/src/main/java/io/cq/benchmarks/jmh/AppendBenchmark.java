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

/**
 * One thread appending excerpts of a fixed size. Each iteration starts a fresh queue, so file growth is part of
 * the measurement and the disk never fills up.
 */
@State(Scope.Thread)
public class AppendBenchmark {
    @Param({"cq", "chronicle"})
    public String implementation;

    @Param({"40", "96", "1024"})
    public int size;

    private Path directory;
    private QueueDriver driver;
    private byte[] payload;
    private long counter;

    @Setup(Level.Iteration)
    public void openQueue() {
        directory = BenchmarkDirectories.create("append-" + implementation);
        driver = QueueDriver.open(implementation, directory);
        payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) ('a' + i % 26);
        }
    }

    @TearDown(Level.Iteration)
    public void deleteQueue() {
        driver.close();
        Directories.delete(directory);
    }

    @Benchmark
    public long append() {
        return driver.append(counter++, payload);
    }
}
