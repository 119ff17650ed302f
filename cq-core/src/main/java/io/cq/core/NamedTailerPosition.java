package io.cq.core;

/**
 * Where a named tailer stands, as persisted in the queue's table store.
 *
 * @param name      the tailer's name
 * @param nextIndex index of the next excerpt the tailer reads, or -1 when it starts from the beginning
 * @param holder    description of the live tailer that holds the name, or empty when none does
 */
public record NamedTailerPosition(String name, long nextIndex, String holder) {
    /** Whether a live tailer (in any process) holds the name now. */
    public boolean held() {
        return !holder.isEmpty();
    }
}
