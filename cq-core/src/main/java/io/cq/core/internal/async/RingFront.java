package io.cq.core.internal.async;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.internal.queue.AsyncFront;
import io.cq.core.internal.queue.QueueContext;
import io.cq.core.internal.queue.StoreTailer;
import io.cq.core.internal.system.FilePermissions;

import java.util.function.LongSupplier;

/** The async engine behind an async queue: its buffer, the appenders that add to it, its tailers and its drainer. */
public final class RingFront implements AsyncFront {
    private final QueueContext queue;
    private final AsyncRing ring;
    private final boolean draining;

    private RingFront(QueueContext queue, AsyncRing ring, boolean draining) {
        this.queue = queue;
        this.ring = ring;
        this.draining = draining;
    }

    public static AsyncFront open(QueueContext queue, FilePermissions permissions, LongSupplier lastIndex,
                                   boolean writable, boolean drain) {
        AsyncRing ring = AsyncRing.open(queue.tableStore(), writable, permissions, lastIndex);
        if (ring == null) {
            return null;
        }
        if (writable && drain) {
            AsyncDrainer.register(ring, queue);
        }
        return new RingFront(queue, ring, writable && drain);
    }

    @Override
    public ExcerptAppender newAppender() {
        return new AsyncAppender(queue, ring);
    }

    @Override
    public ExcerptTailer newTailer(StoreTailer tailer) {
        return new AsyncTailer(queue, tailer, ring);
    }

    @Override
    public long buffered() {
        return Math.max(0, ring.tail() - ring.head());
    }

    @Override
    public void release() {
        // Unregistering a queue that never registered does nothing; the last one to leave drains what is left.
        AsyncDrainer.unregister(ring, queue);
        ring.release();
    }

    /** The buffer itself, for tests of the drain protocol. */
    public AsyncRing ring() {
        return ring;
    }

    @Override
    public String toString() {
        return "async front of " + queue.describe() + (draining ? ", draining" : "");
    }
}
