package io.cq.benchmarks.messages;

/** The fast-path interface, the same for both libraries. */
public interface TickEvents {
    void tick(Tick tick);
}
