package io.cq.benchmarks.jmh;

/**
 * {@link ReadBenchmark} over a queue small enough (4 MiB of payload) to stay in the CPU's caches while it is read
 * again and again: what a tailer that keeps up with its writer reads, the excerpts just written. The figures differ
 * from the large queue's by how fast memory delivers them, not by what the libraries do.
 */
public class RecentReadBenchmark extends ReadBenchmark {
    @Override
    protected long queueBytes() {
        return 4L << 20;
    }
}
