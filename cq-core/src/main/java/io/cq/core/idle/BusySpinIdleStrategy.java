package io.cq.core.idle;

/** Spins without giving up the core. Stateless. */
public final class BusySpinIdleStrategy implements IdleStrategy {
    @Override
    public void idle() {
        Thread.onSpinWait();
    }

    @Override
    public void reset() {
        // nothing to reset: every step is the same
    }

    @Override
    public String alias() {
        return "busy-spin";
    }
}
