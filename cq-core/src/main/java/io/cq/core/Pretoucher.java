package io.cq.core;

/**
 * Moves the costs of growing a queue off the appenders: each {@link #execute()} faults in the pages just ahead of
 * the write position, so appends do not stall on page faults, and creates the next cycle's file shortly before
 * the cycle starts, so the roll does not stall on file creation. Run it every few milliseconds on a thread of
 * its own ({@link MappedQueueBuilder#pretouch(boolean)} does that), or from a scheduler of yours.
 *
 * <p>Touching changes no byte of the queue, even where an appender writes at the same moment. Not thread-safe:
 * one thread per pretoucher. It stops working when its queue closes.
 */
public interface Pretoucher {
    /**
     * One pass: touch the pages ahead of the write position, and create the next cycle's file when it is near.
     *
     * @throws QueueClosedException when the queue is closed
     */
    void execute();
}
