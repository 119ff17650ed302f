package io.cq.jcstress;

import io.cq.core.internal.lock.LockWord;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Take-over of a dead holder: A died holding the lock; B (same process) and C (another process) both find it dead
 * and take it over at once. Exactly one does, and the word names that one.
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "B took over")
@Outcome(id = "0, 1, 3", expect = ACCEPTABLE, desc = "C took over")
@Outcome(expect = FORBIDDEN, desc = "both, neither, or the word names someone else")
@State
public class TakeOverIsExclusive {
    private final LockWord word = LockWords.word(LockWords.memory());

    public TakeOverIsExclusive() {
        word.tryTake(LockWords.A);
    }

    @Actor
    public void waiterB(III_Result r) {
        r.r1 = word.replace(LockWords.A, LockWords.B) ? 1 : 0;
    }

    @Actor
    public void waiterC(III_Result r) {
        r.r2 = word.replace(LockWords.A, LockWords.C) ? 1 : 0;
    }

    @Arbiter
    public void owner(III_Result r) {
        r.r3 = LockWords.code(word.owner());
    }
}
