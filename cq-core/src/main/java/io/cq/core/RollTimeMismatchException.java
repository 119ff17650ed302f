package io.cq.core;

/**
 * An existing queue was opened with a roll time (or zone) other than the one it was created with. Every process on
 * a queue must cut time into the same cycles, so the queue refuses to open rather than file excerpts under
 * different cycles.
 */
public final class RollTimeMismatchException extends QueueException {
    private final transient CycleCalendar inForce;

    public RollTimeMismatchException(String message, CycleCalendar inForce) {
        super(message);
        this.inForce = inForce;
    }

    /** The queue's own calendar: what to ask for instead (or ask for none). */
    public CycleCalendar inForce() {
        return inForce;
    }
}
