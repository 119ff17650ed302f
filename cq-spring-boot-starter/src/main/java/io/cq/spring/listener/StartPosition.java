package io.cq.spring.listener;

/** Where a listener that has never committed a position starts reading its queue. */
public enum StartPosition {
    /** The first excerpt in the queue. */
    BEGINNING,
    /** After the last excerpt: only excerpts appended from now on. */
    END,
    /** The excerpt at {@link QueueListener#startIndex()}; the end of the queue when there is no such excerpt. */
    INDEX,
    /**
     * The first excerpt of the cycle containing {@link QueueListener#startTime()}, or of the next cycle that has a
     * file: excerpts carry no time of their own, so the roll cycle is the resolution. The end of the queue when
     * no cycle is that late.
     */
    TIME
}
