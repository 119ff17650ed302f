package io.cq.core.internal.codec;

/** Where an appender takes encryption nonces from: the table store's serial, under the write lock. */
@FunctionalInterface
public interface NonceSerials {
    /** The next serial; called under the write lock only, so no two excerpts of the queue ever get the same. */
    long take();
}
