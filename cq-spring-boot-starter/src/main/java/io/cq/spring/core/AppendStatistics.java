package io.cq.spring.core;

import java.util.concurrent.atomic.LongAdder;

/** Excerpts and bytes appended through a {@link QueueTemplate} to one queue. Thread-safe. */
public final class AppendStatistics {
    private final LongAdder excerpts = new LongAdder();
    private final LongAdder bytes = new LongAdder();

    void record(long length) {
        excerpts.increment();
        bytes.add(length);
    }

    public long excerpts() {
        return excerpts.sum();
    }

    public long bytes() {
        return bytes.sum();
    }
}
