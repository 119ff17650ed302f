package io.cq.test;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One read of a queue by a {@link QueueProbe}: an unnamed tailer from the queue's start, which never moves a named
 * tailer (a listener's position), the excerpts it has read so far and what the decoder made of each. An await reads
 * on with the same tailer at each poll, so each excerpt is copied and decoded once.
 *
 * <p>Confined to the thread that made it, like its tailer.
 */
final class ProbeReading<T extends @Nullable Object> implements AutoCloseable {
    /** Failure messages show this many of the last excerpts. */
    static final int SHOWN_ON_FAILURE = 5;

    /** Turns an excerpt being read into what the probe returns; may throw to fail the read at once. */
    @FunctionalInterface
    interface Decoder<T extends @Nullable Object> {
        T decode(QueueExcerpt excerpt, ReadContext context);

        /** The excerpt itself. */
        static Decoder<QueueExcerpt> identity() {
            return (excerpt, context) -> excerpt;
        }
    }

    private final MappedQueue queue;
    private final Decoder<T> decoder;
    private final ExcerptTailer tailer;
    private final List<QueueExcerpt> excerpts = new ArrayList<>();
    private final List<T> values = new ArrayList<>();

    ProbeReading(MappedQueue queue, Decoder<T> decoder) {
        this.queue = queue;
        this.decoder = decoder;
        this.tailer = queue.createTailer();
    }

    /** Reads every excerpt published since the last call. */
    ProbeReading<T> catchUp() {
        while (true) {
            try (ReadContext context = tailer.readingDocument()) {
                if (!context.isPresent()) {
                    return this;
                }
                QueueExcerpt excerpt = QueueExcerpt.copyOf(queue, excerpts.size(), context);
                excerpts.add(excerpt);
                values.add(decoder.decode(excerpt, context));
            }
        }
    }

    /** What the decoder made of each excerpt read so far, in queue order. */
    List<T> values() {
        return Collections.unmodifiableList(values);
    }

    int count() {
        return excerpts.size();
    }

    /**
     * The failure message of an await: what was expected, where, and what the queue held: how many excerpts, and
     * the last few of them.
     */
    String timedOut(String expected, Duration timeout, @Nullable String note) {
        StringBuilder message = new StringBuilder("Timed out after ").append(describe(timeout))
                .append(" waiting for ").append(expected).append(" in the queue ").append(queue.path());
        message.append(excerpts.isEmpty() ? "; it holds no excerpt." : "; it holds " + excerpts.size()
                + (excerpts.size() == 1 ? " excerpt." : " excerpts."));
        if (note != null) {
            message.append(' ').append(note);
        }
        return message.append(lastFew()).toString();
    }

    /** The last excerpts read, one per line, for a failure message; empty when there are none. */
    String lastFew() {
        if (excerpts.isEmpty()) {
            return "";
        }
        int shown = Math.min(SHOWN_ON_FAILURE, excerpts.size());
        StringBuilder lines = new StringBuilder(shown == excerpts.size() ? "\nThe excerpts:"
                : "\nThe last " + shown + " excerpts:");
        for (QueueExcerpt excerpt : excerpts.subList(excerpts.size() - shown, excerpts.size())) {
            lines.append("\n  ").append(excerpt);
        }
        return lines.toString();
    }

    private static String describe(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    @Override
    public void close() {
        tailer.close();
    }
}
