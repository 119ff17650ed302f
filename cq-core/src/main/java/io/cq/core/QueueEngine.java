package io.cq.core;

import java.time.LocalTime;

/**
 * cq's engine as its API reaches it. Implemented once, inside cq-core, and found by name when a builder is first used
 * (docs/architecture.md, "The API and the engine"): the engine uses the API's types, so the API's package must not
 * depend on the engine's, or the two would form a package cycle. Applications neither implement nor call it.
 */
public interface QueueEngine {
    /**
     * Checks complete settings, naming any wrong one with its value, and opens the queue.
     *
     * @param rollCycleChosen whether the caller chose the roll cycle: a different persisted one is then logged
     * @param rollTimeChosen  whether the caller chose the roll time: a different persisted one is then refused
     * @param asyncChosen     whether the caller chose async mode on or off: a queue of the other mode is then refused
     * @param codecsChosen    whether the caller chose codecs: a queue created with others is then refused
     * @param repairing       opened only to be repaired: nothing runs in the background, damage is left to repair
     */
    MappedQueue open(QueueSettings settings, boolean rollCycleChosen, boolean rollTimeChosen, boolean asyncChosen,
                     boolean codecsChosen, boolean repairing);

    /** {@link MappedQueueBuilder#smallestBlockSize(RollCycle)}. */
    long smallestBlockSize(RollCycle rollCycle);

    /** A roll time as a queue keeps it: refused unless in whole milliseconds. */
    LocalTime rollTime(LocalTime time);

    /** Called once by cq's engine as its class is initialized; refused for any other implementation. */
    static void install(QueueEngine engine) {
        Engines.install(engine);
    }
}
