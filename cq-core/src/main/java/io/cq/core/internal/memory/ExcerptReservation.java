package io.cq.core.internal.memory;

/**
 * Reserves the file's blocks for an excerpt that a {@link SegmentCursor} writes further than what was reserved when
 * it started: an appender's file, or a compose buffer that grows.
 */
public interface ExcerptReservation {
    /**
     * @return the new reserved end, at least {@code end} (a file position)
     * @throws java.io.UncheckedIOException when the blocks cannot be allocated (a full disk)
     */
    long reserveUpTo(long end);
}
