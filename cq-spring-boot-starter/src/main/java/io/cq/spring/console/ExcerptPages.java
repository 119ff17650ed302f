package io.cq.spring.console;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.TailerDirection;
import io.cq.core.message.ExcerptRendering;
import org.jspecify.annotations.Nullable;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads one page of a queue for the excerpt browser: at most the page size, through an unnamed tailer opened and
 * closed within the request, so a viewer holds nothing between requests and moves no listener. Thread-safe: each
 * call has its own tailer.
 */
final class ExcerptPages {
    /** Where a page starts. */
    enum From {
        /** The first excerpts of the queue. */
        START,
        /** The last excerpts of the queue. */
        END,
        /** From an index on, that index included. */
        AT,
        /** The excerpts after an index (the next page). */
        AFTER,
        /** The excerpts before an index (the previous page). */
        BEFORE,
        /** From the first excerpt of the cycle that holds an instant: excerpts carry no time of their own. */
        TIME
    }

    /**
     * @param from  where the page starts
     * @param index the index for {@link From#AT}, {@link From#AFTER} and {@link From#BEFORE}
     * @param time  the instant for {@link From#TIME}
     * @param limit how many excerpts to read, at most the configured page size
     */
    record Request(From from, long index, @Nullable Instant time, int limit) {
    }

    /**
     * One page, oldest first.
     *
     * @param queue        the queue's name
     * @param firstIndex   the queue's first index, -1 when empty
     * @param lastIndex    its last index, -1 when empty
     * @param excerpts     the excerpts read, oldest first
     * @param more         whether the queue holds excerpts after the last one of the page
     * @param earlier      whether it holds excerpts before the first one of the page
     * @param deadLetters  whether the queue is a dead-letter queue, its excerpts shown as dead letters
     * @param note         why the page is empty or short, when it is not the end of the queue (no such index...)
     * @param serverMillis how long reading and rendering the page took in the application
     */
    record Page(String queue, long firstIndex, long lastIndex, List<ExcerptView> excerpts, boolean more,
                boolean earlier, boolean deadLetters, @Nullable String note, double serverMillis) {
    }

    private final int pageSize;
    private final int displayLimit;

    /** The queues whose record types rendering has been told of. */
    private final Set<Path> typesRead = ConcurrentHashMap.newKeySet();

    ExcerptPages(int pageSize, int displayLimit) {
        this.pageSize = pageSize;
        this.displayLimit = displayLimit;
    }

    /** @param showPaths whether cq's errors may name the queue's directory; it reads "******" otherwise */
    Page read(String name, MappedQueue queue, Request request, boolean deadLetters, boolean showPaths) {
        long started = System.nanoTime();
        int limit = Math.max(1, Math.min(request.limit(), pageSize));
        if (typesRead.add(queue.path())) {
            // Record messages hold their values only; their names are in the queue's record types file, which
            // rendering reads again by itself whenever it meets a type it does not know yet.
            ExcerptRendering.useRecordTypesOf(queue.path());
        }
        ExcerptViews views = new ExcerptViews(queue.rollCycle(), displayLimit, showPaths ? null : queue.path());
        List<ExcerptView> excerpts = new ArrayList<>(limit);
        String note = null;
        try (ExcerptTailer tailer = queue.createTailer()) {
            note = position(queue, tailer, request);
            if (note == null) {
                read(tailer, views, limit, deadLetters, excerpts);
            }
        }
        if (tailerWentBackward(request)) {
            Collections.reverse(excerpts);
        }
        long first = queue.firstIndex();
        long last = queue.lastIndex();
        long pageFirst = excerpts.isEmpty() ? -1 : excerpts.getFirst().index();
        long pageLast = excerpts.isEmpty() ? -1 : excerpts.getLast().index();
        boolean more = pageLast >= 0 && pageLast < last;
        boolean earlier = pageFirst > first;
        return new Page(name, first, last, excerpts, more, earlier, deadLetters, note,
                (System.nanoTime() - started) / 1e6);
    }

    private static boolean tailerWentBackward(Request request) {
        return request.from() == From.END || request.from() == From.BEFORE;
    }

    /** Puts the tailer where the page starts; returns why there is nothing to read, or null. */
    private static @Nullable String position(MappedQueue queue, ExcerptTailer tailer, Request request) {
        switch (request.from()) {
            case START -> tailer.toStart();
            case END -> tailer.direction(TailerDirection.BACKWARD).toEnd();
            case AT, AFTER, BEFORE -> {
                if (request.from() == From.BEFORE) {
                    tailer.direction(TailerDirection.BACKWARD);
                }
                if (!tailer.moveToIndex(request.index())) {
                    return noSuchIndex(queue, request.index());
                }
                if (request.from() != From.AT) {
                    skipOne(tailer);
                }
            }
            case TIME -> {
                if (!tailer.moveTo(StartPosition.time(request.time()))) {
                    return "no excerpt at or after " + request.time() + " (the cycle that holds it, or a later one)";
                }
            }
        }
        return null;
    }

    private static String noSuchIndex(MappedQueue queue, long index) {
        long first = queue.firstIndex();
        return "the queue holds no excerpt with index " + ExcerptViews.hex(index) + (first < 0 ? ": it is empty"
                : "; it holds " + ExcerptViews.hex(first) + " to " + ExcerptViews.hex(queue.lastIndex()));
    }

    private static void skipOne(ExcerptTailer tailer) {
        // the excerpt at the index, which the page next to this one shows
        try (ReadContext shown = tailer.readingDocument()) {
            assert shown.isPresent() : "moveToIndex found it";
        }
    }

    /**
     * Reads up to {@code limit} excerpts. An excerpt cq cannot read ends the page with cq's error in its place: the
     * rest of the queue stays reachable by index, and the page keeps working.
     */
    private static void read(ExcerptTailer tailer, ExcerptViews views, int limit, boolean deadLetters,
                             List<ExcerptView> into) {
        while (into.size() < limit) {
            long at = tailer.index();
            try (ReadContext context = tailer.readingDocument()) {
                if (!context.isPresent()) {
                    return;
                }
                into.add(render(views, context, deadLetters));
            } catch (RuntimeException e) {
                into.add(views.damaged(at, e));
                return;
            }
        }
    }

    private static ExcerptView render(ExcerptViews views, ReadContext context, boolean deadLetters) {
        try {
            return deadLetters ? views.renderDeadLetter(context.bytes(), context.index())
                    : views.render(context.bytes(), context.index());
        } catch (RuntimeException e) {
            // read, but not renderable (a message cut short in a way the decoder did not foresee): say so, go on
            return views.damaged(context.index(), e);
        }
    }
}
