package io.cq.core;

import java.nio.file.Path;

/**
 * Told when this process starts and stops using a cycle file, and when retention deletes one: the place to
 * archive or compress finished files. Called on the appender's or tailer's thread, while cq holds the queue's
 * file registry: keep it short and hand heavy work to another thread.
 */
public interface StoreFileListener {
    /** The first appender or tailer of this process opened the cycle's file. */
    default void onAcquired(long cycle, Path file) {
    }

    /** The last appender or tailer of this process let go of the cycle's file; it is unmapped. */
    default void onReleased(long cycle, Path file) {
    }

    /** Retention deleted the cycle's file. */
    default void onDeleted(long cycle, Path file) {
    }
}
