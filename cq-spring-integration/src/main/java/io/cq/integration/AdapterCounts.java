package io.cq.integration;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The processed and failed counts of one adapter (see {@link QueueAdapterInfo#processedCount()} and
 * {@link QueueAdapterInfo#failedCount()} for what each adapter counts). The adapter adds to them; monitoring reads
 * them. Thread-safe.
 */
public final class AdapterCounts {
    private final AtomicLong processed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /** Counts one message handled successfully. */
    public void countProcessed() {
        processed.incrementAndGet();
    }

    /** Counts one message that failed. */
    public void countFailed() {
        failed.incrementAndGet();
    }

    public long processed() {
        return processed.get();
    }

    public long failed() {
        return failed.get();
    }
}
