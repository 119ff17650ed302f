package io.cq.core.internal.lock;

import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.table.TableStore;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The write-lock word of a table store (layout in {@link LockWordDescriptor}, transitions in {@link LockWord}),
 * with what deciding about its holder needs: whether the holder's process is alive, and who it is.
 * Thread-safe; holds no state but the mapping.
 */
public final class WriteLockWord {
    private final TableStore store;
    private final LockWord word;
    /** Where this JVM keeps its {@link WaitingLine} for this word: one per word and JVM, made when first needed. */
    private final AtomicReference<Object> lineSlot;

    public WriteLockWord(TableStore store) {
        this(store, store.memory(), LockWordDescriptor.WRITE_LOCK_OFFSET, store.writeLockLine());
    }

    /**
     * A lock word at {@code offset} of {@code memory} (an async buffer's), with the table store's tokens and process
     * liveness; {@code lineSlot} is where the owner of the memory keeps this JVM's line of writers waiting for it.
     */
    public WriteLockWord(TableStore store, MemorySegment memory, long offset, AtomicReference<Object> lineSlot) {
        this.store = store;
        this.word = new LockWord(memory, offset);
        this.lineSlot = lineSlot;
    }

    /** This JVM's line of writers for the word, or null while no writer of this JVM has had to wait for it. */
    WaitingLine existingLine() {
        return (WaitingLine) lineSlot.get();
    }

    /**
     * This JVM's line of writers for the word, made by the first writer that waits (not on the way to a process's
     * first excerpt, which waits for nobody).
     */
    WaitingLine line() {
        Object line = lineSlot.get();
        if (line == null) {
            lineSlot.compareAndSet(null, new WaitingLine());
            line = lineSlot.get();
        }
        return (WaitingLine) line;
    }

    /** The holder's token, or {@link LockWordDescriptor#FREE}. */
    public long owner() {
        return word.owner();
    }

    /** The process slot of the holder, or -1 when the lock is free. */
    public int ownerSlot() {
        long owner = word.owner();
        return owner == LockWordDescriptor.FREE ? -1 : LockWordDescriptor.processSlot(owner);
    }

    public boolean tryTake(long token) {
        return word.tryTake(token);
    }

    /** Gives the lock back if {@code token} holds it; false when another token does (a stale release). */
    public boolean release(long token) {
        return word.release(token);
    }

    /** {@link LockWord#releaseOwned()}: by the holder's own running thread only. */
    public void releaseOwned() {
        word.releaseOwned();
    }

    /** Hands the lock from a holder known to be dead to a new owner (or to nobody, with FREE). */
    public boolean replace(long deadOwner, long newOwner) {
        return word.replace(deadOwner, newOwner);
    }

    /** A token never issued before on this queue, for an appender of this process. */
    public long newToken() {
        return LockWordDescriptor.token(store.processSlot(), store.nextTokenSerial());
    }

    /** Whether the process that a token names still has the queue open: its process-slot lock is held. */
    public boolean isHolderProcessAlive(long token) {
        return store.processSlots().isAlive(LockWordDescriptor.processSlot(token));
    }

    /** Who holds a token, for messages: pid and host where the table store records them. */
    public String describeHolder(long token) {
        return store.processSlots().describe(LockWordDescriptor.processSlot(token));
    }

    /** This process's slot, named by the tokens of its appenders. */
    public int processSlot() {
        return store.processSlot();
    }

    public Path path() {
        return store.path();
    }
}
