package io.cq.core;

/**
 * What a queue occupies on disk (docs/operations.md, "Disk usage"), read from the files now.
 *
 * @param files          the table store and the cycle files
 * @param writtenBytes   bytes holding the queue's data: the table store, and each cycle file's header, index and
 *                       records up to its last header word
 * @param fileBytes      the files' lengths added up; the newest cycle file is longer than what it holds while it is
 *                       written (a writer maps whole blocks of it, sparse)
 * @param allocatedBytes bytes of disk blocks allocated to the files, what {@code du} counts: the written bytes plus
 *                       what is reserved ahead of the writer, less the index pages a finished cycle never wrote where
 *                       they were given back (docs/file-format.md, "Unused index space"); -1 where this process cannot
 *                       read it (it needs native access, docs/operations.md)
 */
public record QueueDiskUsage(int files, long writtenBytes, long fileBytes, long allocatedBytes) {
    /** Whether {@link #allocatedBytes()} could be read. */
    public boolean allocatedKnown() {
        return allocatedBytes >= 0;
    }
}
