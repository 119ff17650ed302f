package io.cq.jcstress;

import io.cq.core.internal.lock.LockWord;
import io.cq.core.internal.memory.Memory;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.lang.foreign.MemorySegment;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Release by the holder's own thread (a release store, no compare-and-set: nobody can take a running thread's
 * lock over): the holder writes plainly and releases; the next appender to take the lock
 * sees everything written under it. Taking it must never come with the old value.
 */
@JCStressTest
@Outcome(id = "0, -1", expect = ACCEPTABLE, desc = "not released yet: the waiter did not get the lock")
@Outcome(id = "1, 42", expect = ACCEPTABLE, desc = "released, and the new holder sees what was written")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "took the lock but missed what the previous holder wrote")
@Outcome(expect = FORBIDDEN, desc = "anything else")
@State
public class OwnerReleasePublishes {
    private final MemorySegment memory = LockWords.memory();
    private final LockWord word = LockWords.word(memory);

    public OwnerReleasePublishes() {
        word.tryTake(LockWords.A);
    }

    @Actor
    public void holder() {
        Memory.putInt(memory, 64, 42);
        word.releaseOwned();
    }

    @Actor
    public void waiter(II_Result r) {
        if (word.tryTake(LockWords.B)) {
            r.r1 = 1;
            r.r2 = Memory.getInt(memory, 64);
        } else {
            r.r1 = 0;
            r.r2 = -1;
        }
    }
}
