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

/** Acquire: two appenders (of two processes) take a free lock at once; exactly one gets it, and the word names it. */
@JCStressTest
@Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "A took it")
@Outcome(id = "0, 1, 3", expect = ACCEPTABLE, desc = "C took it")
@Outcome(expect = FORBIDDEN, desc = "both, neither, or the word names someone else")
@State
public class TakeIsExclusive {
    private final LockWord word = LockWords.word(LockWords.memory());

    @Actor
    public void appenderA(III_Result r) {
        r.r1 = word.tryTake(LockWords.A) ? 1 : 0;
    }

    @Actor
    public void appenderC(III_Result r) {
        r.r2 = word.tryTake(LockWords.C) ? 1 : 0;
    }

    @Arbiter
    public void owner(III_Result r) {
        r.r3 = LockWords.code(word.owner());
    }
}
