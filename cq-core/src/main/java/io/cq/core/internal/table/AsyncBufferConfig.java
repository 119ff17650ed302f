package io.cq.core.internal.table;

/**
 * An async queue's buffer as its table store records it (docs/file-format.md, "Async buffer"): fixed when the queue
 * is created, so that every process on the queue uses the same buffer.
 *
 * @param size      bytes of records in the buffer; 0 for a queue without async mode
 * @param queueId   random, names the buffer's file
 * @param directory where the buffer's file is (absolute)
 */
public record AsyncBufferConfig(long size, long queueId, String directory) {
    public static final AsyncBufferConfig NONE = new AsyncBufferConfig(0, 0, "");

    public boolean enabled() {
        return size > 0;
    }
}
