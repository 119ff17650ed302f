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
 * Release against a waiter's take: A releases while C tries to take the lock. C gets it only after the release;
 * a failed take leaves the lock free (released) or A's.
 */
@JCStressTest
@Outcome(id = "1, 1, 3", expect = ACCEPTABLE, desc = "released, then taken by C")
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "C tried before the release")
@Outcome(expect = FORBIDDEN, desc = "C took a held lock, or the release failed")
@State
public class ReleaseAgainstTake {
    private final LockWord word = LockWords.word(LockWords.memory());

    public ReleaseAgainstTake() {
        word.tryTake(LockWords.A);
    }

    @Actor
    public void holderA(III_Result r) {
        r.r1 = word.release(LockWords.A) ? 1 : 0;
    }

    @Actor
    public void waiterC(III_Result r) {
        r.r2 = word.tryTake(LockWords.C) ? 1 : 0;
    }

    @Arbiter
    public void owner(III_Result r) {
        r.r3 = LockWords.code(word.owner());
    }
}
