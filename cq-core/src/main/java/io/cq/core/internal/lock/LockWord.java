package io.cq.core.internal.lock;

import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.memory.Memory;

import java.lang.foreign.MemorySegment;

/**
 * The transitions of a lock word, and nothing else (protocol in docs/file-format.md, "Locks and liveness"; proved
 * by the jcstress tests of {@code cq-jcstress}). Every transition is one compare-and-set on the word, so whatever
 * interleaves, the word names exactly one holder or none:
 * <ul>
 *   <li>take: FREE to a token;</li>
 *   <li>release: the owner's own token to FREE, which publishes what it wrote under the lock; any other value
 *       is a stale release and is left as it is ({@link #releaseOwned()}, a plain release store, serves the
 *       thread that took the lock, which nobody can take over while it runs);</li>
 *   <li>take over: a dead holder's token to the taker's (or to FREE).</li>
 * </ul>
 * Thread-safe; holds no state but the memory.
 */
public final class LockWord {
    private final MemorySegment memory;
    private final long offset;

    public LockWord(MemorySegment memory, long offset) {
        this.memory = memory;
        this.offset = offset;
    }

    /** The holder's token, or {@link LockWordDescriptor#FREE}. */
    public long owner() {
        return Memory.getLongVolatile(memory, offset);
    }

    public boolean tryTake(long token) {
        return Memory.casLong(memory, offset, LockWordDescriptor.FREE, token);
    }

    /** Gives the lock back if {@code token} holds it; false (and nothing changed) when it does not. */
    public boolean release(long token) {
        return Memory.casLong(memory, offset, token, LockWordDescriptor.FREE);
    }

    /**
     * {@link #release(long)} for the holder's own thread while it runs: nobody can take the lock over then (a
     * take-over needs the holder dead, by its process's OS lock or its thread), so the word still holds
     * {@code token} and a release store, cheaper than a compare-and-set on the append path, gives it back.
     */
    public void releaseOwned() {
        Memory.putLongRelease(memory, offset, LockWordDescriptor.FREE);
    }

    /** Hands the lock from a holder known to be dead to a new owner (or to nobody, with FREE). */
    public boolean replace(long deadOwner, long newOwner) {
        return Memory.casLong(memory, offset, deadOwner, newOwner);
    }
}
