package io.cq.spring.console;

import io.cq.core.ExcerptBytes;
import io.cq.core.RollCycle;
import io.cq.core.message.ExcerptRendering;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import io.cq.spring.actuate.QueueDescriptor;
import io.cq.spring.console.ExcerptView.DeadLetterView;
import io.cq.spring.listener.DeadLetter;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renders excerpts for the console with cq-core's {@link ExcerptRendering}, the rendering of {@code cq tail}, at a
 * bounded cost: an excerpt longer than {@link #DECODE_LIMIT} is not decoded (its start is shown in hex), and every
 * rendering is cut to the display limit. Stateless; thread-safe.
 */
final class ExcerptViews {
    /** Longest excerpt decoded for display; a longer one shows its first bytes only (cq tail shows it whole). */
    static final int DECODE_LIMIT = 64 * 1024;

    private final RollCycle rollCycle;
    private final int displayLimit;
    private final @Nullable Path hidden;

    /**
     * @param displayLimit the longest rendering shown, in characters
     * @param hidden       the queue's directory when it must not be shown: cq's errors name it, and read "******"
     */
    ExcerptViews(RollCycle rollCycle, int displayLimit, @Nullable Path hidden) {
        this.rollCycle = rollCycle;
        this.displayLimit = displayLimit;
        this.hidden = hidden;
    }

    /** The excerpt at the cursor (position 0) as the excerpt browser shows it. */
    ExcerptView render(ExcerptBytes excerpt, long index) {
        long length = excerpt.length();
        if (length > DECODE_LIMIT) {
            return tooLong(excerpt, index, length);
        }
        ObjectNode message = ExcerptRendering.message(excerpt);
        if (message != null) {
            return message(excerpt, index, length, message);
        }
        byte[] bytes = ExcerptRendering.remainingBytes(excerpt);
        Shown shown = new Shown(displayLimit);
        String json = shown.cut(json(index, bytes));
        String text = ExcerptRendering.printableText(bytes);
        if (text != null) {
            return view(index, length, "text", shown.cut(text.replace("\n", "\\n")), json, shown.cut(text), null,
                    Map.of(), null, shown.cut);
        }
        return view(index, length, "bytes", shown.cut(ExcerptRendering.hex(bytes)), json, null,
                shown.hex(bytes, length), Map.of(), null, shown.cut);
    }

    /** An excerpt of a dead-letter queue: the failure, and the failed excerpt decoded as any other. */
    ExcerptView renderDeadLetter(ExcerptBytes excerpt, long index) {
        DeadLetter letter;
        try {
            letter = DeadLetter.readFrom(excerpt);
        } catch (RuntimeException e) {
            excerpt.position(0);
            ExcerptView plain = render(excerpt, index);
            return withError(plain, "not a dead letter as DeadLetterErrorHandler writes them: " + e);
        }
        ExcerptView payload = render(Messages.readOnlyBytes(letter.payload()), letter.index());
        Shown shown = new Shown(displayLimit);
        DeadLetterView dead = new DeadLetterView(letter.queue(), letter.index(), hex(letter.index()),
                letter.listenerId(), letter.exceptionClass(), shown.cut(letter.exceptionMessage()), payload);
        String summary = letter.exceptionClass() + " in listener " + letter.listenerId() + " on " + letter.queue()
                + " " + hex(letter.index()) + ": " + payload.summary();
        return new ExcerptView(index, hex(index), rollCycle.toCycle(index), rollCycle.toSequenceNumber(index),
                excerpt.length(), "dead-letter", shown.cut(summary), null, null, null, payload.headers(),
                payload.traceId(), payload.cut() || shown.cut, null, dead);
    }

    /** An excerpt cq could not read: its error, as cq words it. */
    ExcerptView damaged(long index, RuntimeException error) {
        return new ExcerptView(index, hex(index), index < 0 ? -1 : rollCycle.toCycle(index),
                index < 0 ? -1 : rollCycle.toSequenceNumber(index), 0, "damaged", null, null, null, null, Map.of(),
                null, false, withoutPath(String.valueOf(error)), null);
    }

    private String withoutPath(String message) {
        if (hidden == null) {
            return message;
        }
        return message.replace(hidden.toAbsolutePath().toString(), QueueDescriptor.HIDDEN)
                .replace(hidden.toString(), QueueDescriptor.HIDDEN);
    }

    private ExcerptView message(ExcerptBytes excerpt, long index, long length, ObjectNode message) {
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode carried = message.path("headers");
        for (Map.Entry<String, JsonNode> header : carried.properties()) {
            headers.put(header.getKey(), header.getValue().asString(""));
        }
        ObjectNode line = JsonNodeFactory.instance.objectNode();
        line.put("index", hex(index));
        line.setAll(message);
        boolean malformed = message.has("malformed");
        Shown shown = new Shown(displayLimit);
        return view(index, length, malformed ? "malformed" : "message",
                shown.cut(ExcerptRendering.messageText(message)), shown.cut(ExcerptRendering.json(line)), null,
                malformed ? shown.hex(bytesOf(excerpt), length) : null, headers,
                malformed ? message.get("malformed").asString() : null, shown.cut);
    }

    /** Too long to decode here: the method name when it is a message, and the first bytes in hex. */
    private ExcerptView tooLong(ExcerptBytes excerpt, long index, long length) {
        String what;
        try {
            String method = Messages.methodName(excerpt);
            what = method == null ? "" : (method.isEmpty() ? "(object)" : method) + " ";
        } catch (MessageDecodingException e) {
            what = ExcerptRendering.MALFORMED + " ";
        }
        byte[] start = new byte[Math.min(displayLimit / 2, (int) Math.min(length, Integer.MAX_VALUE))];
        excerpt.position(0);
        excerpt.readBytes(start);
        String note = what + "(" + length + " bytes, longer than the " + DECODE_LIMIT
                + " the console decodes: cq tail shows it whole)";
        return view(index, length, what.isEmpty() ? "bytes" : "message", note, null, null,
                ExcerptRendering.hex(start, length, start.length), Map.of(), null, true);
    }

    private ExcerptView view(long index, long length, String kind, String summary, @Nullable String json,
                             @Nullable String text, @Nullable String hex, Map<String, String> headers,
                             @Nullable String error, boolean cut) {
        return new ExcerptView(index, hex(index), index < 0 ? -1 : rollCycle.toCycle(index),
                index < 0 ? -1 : rollCycle.toSequenceNumber(index), length, kind, summary, json, text, hex,
                Map.copyOf(headers), traceId(headers), cut, error, null);
    }

    private static String json(long index, byte[] bytes) {
        ObjectNode line = JsonNodeFactory.instance.objectNode();
        line.put("index", hex(index));
        ExcerptRendering.json(Messages.readOnlyBytes(bytes), line);
        return ExcerptRendering.json(line);
    }

    private static byte[] bytesOf(ExcerptBytes excerpt) {
        excerpt.position(0);
        return ExcerptRendering.remainingBytes(excerpt);
    }

    /** The trace id of the W3C {@code traceparent} header ({@code 00-trace-span-flags}) or of Zipkin's B3. */
    static @Nullable String traceId(Map<String, String> headers) {
        String traceparent = headers.get("traceparent");
        if (traceparent != null) {
            String[] parts = traceparent.split("-");
            return parts.length >= 3 ? parts[1] : null;
        }
        String b3 = headers.get("b3");
        if (b3 != null) {
            return b3.split("-")[0];
        }
        return headers.get("X-B3-TraceId");
    }

    private static ExcerptView withError(ExcerptView view, String error) {
        return new ExcerptView(view.index(), view.indexHex(), view.cycle(), view.sequence(), view.length(),
                view.kind(), view.summary(), view.json(), view.text(), view.hex(), view.headers(), view.traceId(),
                view.cut(), error, null);
    }

    static @Nullable String hex(long index) {
        return index < 0 ? null : "0x" + Long.toHexString(index);
    }

    /** Cuts what one excerpt shows to the display limit, and remembers whether it had to. */
    private static final class Shown {
        private final int limit;
        private boolean cut;

        Shown(int limit) {
            this.limit = limit;
        }

        String cut(String text) {
            if (text.length() <= limit) {
                return text;
            }
            cut = true;
            int end = Character.isHighSurrogate(text.charAt(limit - 1)) ? limit - 1 : limit;
            return text.substring(0, end) + " ... (" + (text.length() - end) + " more characters)";
        }

        String hex(byte[] bytes, long length) {
            cut |= length * 2 > limit;
            return ExcerptRendering.hex(bytes, length, limit / 2);
        }
    }
}
