package io.cq.core.idle;

/** Yields the core on every idle poll. Stateless. */
public final class YieldingIdleStrategy implements IdleStrategy {
    @Override
    public void idle() {
        Thread.yield();
    }

    @Override
    public void reset() {
        // nothing to reset: every step is the same
    }

    @Override
    public String alias() {
        return "yielding";
    }
}
