package io.cq.core;

/**
 * What an open queue holds in this process now (docs/operations.md, "Resources"): for monitoring, and for telling a
 * leak from a load. Every figure returns to where it was once the appenders and tailers that raised it are closed
 * (or their threads have ended, for {@link MappedQueue#acquireAppender()}'s).
 *
 * @param openAppenders appenders not yet closed: created ones, and thread-bound ones of threads still running
 *                      (those of ended threads are closed within a second)
 * @param openTailers   tailers not yet closed
 * @param openFiles     cycle files this queue has open (each one file descriptor and its mappings)
 * @param mappedBytes   bytes of address space mapped for those files
 */
public record QueueResources(int openAppenders, int openTailers, int openFiles, long mappedBytes) {
}
