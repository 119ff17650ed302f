package io.cq.jcstress;

import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.lock.LockWord;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A lock word in fresh memory, with tokens of three appenders, for the tests' states. */
final class LockWords {
    /** Tokens from two process slots; A and B in one process, C in another. */
    static final long A = LockWordDescriptor.token(0, 1);
    static final long B = LockWordDescriptor.token(0, 2);
    static final long C = LockWordDescriptor.token(1, 3);

    private LockWords() {
    }

    /** A word and, after it on its own cache line, a value written under the lock. */
    static MemorySegment memory() {
        return Arena.ofAuto().allocate(128, 64);
    }

    static LockWord word(MemorySegment memory) {
        return new LockWord(memory, 0);
    }

    /** The owner as a small number for outcomes: 0 free, 1 A, 2 B, 3 C, -1 anything else. */
    static int code(long owner) {
        if (owner == LockWordDescriptor.FREE) {
            return 0;
        }
        if (owner == A) {
            return 1;
        }
        if (owner == B) {
            return 2;
        }
        return owner == C ? 3 : -1;
    }
}
