package io.cq.core;

/**
 * Moves the costs of growing a queue off the appenders: each {@link #execute()} reserves the disk blocks just ahead
 * of the write position and faults their pages in, so appends do not stall on reservations or page faults, and
 * creates the next cycle's file shortly before the cycle starts, so the roll does not stall on file creation.
 * Reserving and faulting in ahead need native access ({@code --enable-native-access}, or the
 * {@code Enable-Native-Access} manifest entry): without it, the pretoucher creates files only, and appenders
 * reserve and fault in their pages themselves, just as safely, a little more slowly. Run it every few milliseconds on a
 * thread of its own ({@link MappedQueueBuilder#pretouch(boolean)} does that), or from a scheduler of yours.
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
