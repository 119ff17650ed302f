package io.cq.core;

/**
 * A process that has the queue open for writing now (it holds a process slot: docs/file-format.md, "Locks and
 * liveness"), as the table store records it.
 *
 * @param processSlot    the slot it holds
 * @param pid            its pid, as seen in its own pid namespace; -1 where the table store has no record of it
 * @param host           its host (or container) name; empty where unknown
 * @param holdsWriteLock whether one of its appenders holds the write lock at this moment
 */
public record WriterProcess(int processSlot, long pid, String host, boolean holdsWriteLock) {
}
