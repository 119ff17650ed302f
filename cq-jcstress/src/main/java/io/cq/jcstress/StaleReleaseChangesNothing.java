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
 * Stale release against take-over: A holds the lock and is taken for dead; B takes it over while A's release comes
 * in. Either A released first (and B's take-over of A finds the lock free: B must then take it normally), or B
 * took over first and A's release changes nothing. The lock is never left free after a take-over, nor held by two.
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "taken over; the stale release changed nothing")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "A released before the take-over, which then failed")
@Outcome(expect = FORBIDDEN, desc = "both succeeded, or the word disagrees with what succeeded")
@State
public class StaleReleaseChangesNothing {
    private final LockWord word = LockWords.word(LockWords.memory());

    public StaleReleaseChangesNothing() {
        word.tryTake(LockWords.A);
    }

    @Actor
    public void takeOver(III_Result r) {
        r.r1 = word.replace(LockWords.A, LockWords.B) ? 1 : 0;
    }

    @Actor
    public void staleRelease(III_Result r) {
        r.r2 = word.release(LockWords.A) ? 1 : 0;
    }

    @Arbiter
    public void owner(III_Result r) {
        r.r3 = LockWords.code(word.owner());
    }
}
