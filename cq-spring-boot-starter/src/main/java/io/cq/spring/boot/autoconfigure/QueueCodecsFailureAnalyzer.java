package io.cq.spring.boot.autoconfigure;

import io.cq.core.CodecsMismatchException;
import io.cq.core.MissingKeyException;
import io.cq.spring.support.QueueCodecsException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Turns a queue that cannot be opened with its codecs or keys into a report naming the queue, the property and
 * the fix: a {@link QueueCodecsException} of the starter's queues, or a {@link MissingKeyException} or
 * {@link CodecsMismatchException} of a queue the application built itself. Neither holds a key or a password.
 */
public final class QueueCodecsFailureAnalyzer implements FailureAnalyzer {

    @Override
    public @Nullable FailureAnalysis analyze(Throwable failure) {
        QueueCodecsException codecs = find(failure, QueueCodecsException.class);
        if (codecs != null) {
            return new FailureAnalysis("The cq queue '" + codecs.queue() + "' cannot be opened with the property '"
                    + codecs.property() + "': " + codecs.problem(), codecs.action(), codecs);
        }
        MissingKeyException missing = find(failure, MissingKeyException.class);
        if (missing != null) {
            return new FailureAnalysis(missing.getMessage(), "Give the queue the key store with its keys: "
                    + "cq.queues.<name>.encryption.key-store, key-store-password and key-alias for a queue of "
                    + "cq.queues, MappedQueueBuilder.encryptionKeys for one built in code; or open it read-only.",
                    missing);
        }
        CodecsMismatchException mismatch = find(failure, CodecsMismatchException.class);
        if (mismatch != null) {
            return new FailureAnalysis(mismatch.getMessage(), "Open the queue with its own codecs ("
                    + mismatch.codecsInForce().describe() + "): leave cq.queues.<name>.checksums and compression "
                    + "unset, or do not call MappedQueueBuilder.codecs; for other codecs, create a queue in a new "
                    + "directory and copy the excerpts there.", mismatch);
        }
        return null;
    }

    private static <T extends Throwable> @Nullable T find(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        return null;
    }
}
