package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;
import io.cq.core.internal.memory.SegmentCursor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * The message layer's entry point: typed messages on top of the engine's appenders and tailers
 * (docs/messages.md). The engine itself never loads this class, nor Jackson.
 *
 * <ul>
 *   <li>Method writers and readers: {@link #methodWriter(ExcerptAppender, Class)} turns calls on an interface into
 *       excerpts, {@link #methodReader(ExcerptTailer, Object...)} turns them back into calls on handlers.</li>
 *   <li>Objects: {@link #writeObject(ExcerptAppender, Object)} and {@link #readObject(ExcerptTailer, Class)}.</li>
 *   <li>Tools that know nothing of the interfaces that wrote a message show it as JSON ({@link #toJson}); decoding
 *       builds JSON trees only, so no class named by the data is loaded, and the cursor's position is left where
 *       it was.</li>
 * </ul>
 *
 * <pre>{@code
 * OrderEvents events = Messages.methodWriter(appender, OrderEvents.class);
 * events.onOrder(new Order("AAPL", 100));
 *
 * MethodReader reader = Messages.methodReader(tailer, handler);
 * while (reader.readOne()) { }
 *
 * try (ReadContext dc = tailer.readingDocument()) {
 *     if (dc.isPresent() && Messages.isMessage(dc.bytes())) {
 *         System.out.println(Messages.toJson(dc));   // {"method":"onOrder","arguments":[42,{"symbol":"AAPL",...}]}
 *     }
 * }
 * }</pre>
 *
 * Thread-safe (stateless).
 */
public final class Messages {
    private Messages() {
    }

    /**
     * An implementation of the interface whose every call appends one message excerpt naming the method and
     * carrying its arguments (docs/messages.md). Confined to the appender's thread, like the appender.
     *
     * @throws IllegalArgumentException when the type is not a suitable interface (see {@link MethodWriterBuilder})
     */
    public static <T> T methodWriter(ExcerptAppender appender, Class<T> type) {
        return methodWriterBuilder(appender, type).build();
    }

    /** Configures a method writer on an appender (source id, history). */
    public static <T> MethodWriterBuilder<T> methodWriterBuilder(ExcerptAppender appender, Class<T> type) {
        return new MethodWriterBuilder<>(appender, type);
    }

    /**
     * A reader that turns message excerpts back into calls on the handlers (docs/messages.md). Confined to the
     * tailer's thread.
     */
    public static MethodReader methodReader(ExcerptTailer tailer, Object... handlers) {
        return methodReaderBuilder(tailer).handlers(handlers).build();
    }

    /** Configures a method reader on a tailer (handlers, allowed types, history). */
    public static MethodReaderBuilder methodReaderBuilder(ExcerptTailer tailer) {
        return new MethodReaderBuilder(tailer);
    }

    /**
     * Appends the object (a record, POJO, collection...) as one self-describing message excerpt, encoded as CBOR
     * through Jackson, and returns its index; read it with {@link #readObject(ExcerptTailer, Class)}.
     */
    public static long writeObject(ExcerptAppender appender, Object value) {
        return MessageEngines.engine().writeObject(appender, value, null);
    }

    /**
     * {@link #writeObject(ExcerptAppender, Object)} with the pairs {@code headers} holds after the object (none when
     * it is empty); {@link #readObject} and every other reader that does not ask for headers ignore them.
     */
    public static long writeObject(ExcerptAppender appender, Object value, TextHeaders headers) {
        return MessageEngines.engine().writeObject(appender, value, Objects.requireNonNull(headers, "headers"));
    }

    /**
     * Replaces {@code into} with the headers a message excerpt carries ({@link TextHeaders}), without moving the
     * cursor and without decoding the arguments.
     *
     * @return false, leaving {@code into} empty, when the excerpt is raw bytes or text, or a message without headers
     * @throws MessageDecodingException when its headers section is malformed
     */
    public static boolean readHeaders(ExcerptBytes bytes, TextHeaders into) {
        return MessageEngines.engine().readHeaders(bytes, -1, into);
    }

    /** {@link #readHeaders(ExcerptBytes, TextHeaders)} of the excerpt being read; errors name its index. */
    public static boolean readHeaders(ReadContext context, TextHeaders into) {
        return MessageEngines.engine().readHeaders(context.bytes(), context.index(), into);
    }

    /**
     * Reads the tailer's next excerpt, written by {@link #writeObject(ExcerptAppender, Object)}, as a {@code type};
     * null when there is none yet. Documents may name only types reachable from {@code type}.
     *
     * @throws MessageDecodingException when the excerpt is not such a message or does not decode as a
     *                                  {@code type} (the excerpt is consumed)
     */
    public static <T> T readObject(ExcerptTailer tailer, Class<T> type) {
        return MessageEngines.engine().readObject(tailer, type);
    }

    /** Whether the excerpt is a message (written by a method writer or {@code writeObject}), not raw bytes. */
    public static boolean isMessage(ExcerptBytes bytes) {
        return MessageEngines.engine().isMessage(bytes);
    }

    /**
     * The method a message excerpt names ({@code ""} for {@code writeObject}), or null when it is not a message.
     *
     * @throws MessageDecodingException when the message is malformed
     */
    public static String methodName(ExcerptBytes bytes) {
        return MessageEngines.engine().methodName(bytes, -1);
    }

    /**
     * The message as a tree: {@code {"method": name, "arguments": [...], "history": {"sources": [{"sourceId",
     * "index"}...], "timings": [...]}, "headers": {name: value...}}}, history and headers only when the excerpt
     * carries them. Documents become JSON
     * objects, arrays and values; a {@link BytesMessage} argument becomes {@code {"selfWrittenHex": "..."}}
     * because only its type can read it.
     *
     * @throws MessageDecodingException when the excerpt is not a message or is malformed
     */
    public static ObjectNode toTree(ExcerptBytes bytes) {
        return MessageEngines.engine().toTree(bytes, -1);
    }

    /** {@link #toTree(ExcerptBytes)} of the excerpt being read; errors name its index. */
    public static ObjectNode toTree(ReadContext context) {
        return MessageEngines.engine().toTree(context.bytes(), context.index());
    }

    /**
     * The first argument of the message being read (the object of {@code writeObject}, or a method writer's first
     * argument) as a {@code type}, with the allow-list of {@link #readObject(ExcerptTailer, Class)}.
     * Unlike {@code readObject} it does not move the tailer: closing the context commits, or rolls back after
     * {@link ReadContext#rollbackOnClose()}, so a consumer can decode first and commit after it has handled
     * the object. The cursor's position is left where it was.
     *
     * @throws MessageDecodingException when the excerpt is not a message or its first argument does not decode
     *                                  as a {@code type}
     */
    public static <T> T readObject(ReadContext context, Class<T> type) {
        return MessageEngines.engine().decode(context, type);
    }

    /**
     * A read-only cursor over an excerpt's bytes held on the heap (a copy, a dead letter's payload), at position 0,
     * for {@link #isMessage}, {@link #toTree(ExcerptBytes)}, {@link #readHeaders(ExcerptBytes, TextHeaders)} and
     * {@link ExcerptRendering}. It reads the array in place, without copying it; writing through it fails. Not
     * thread-safe.
     */
    public static ExcerptBytes readOnlyBytes(byte[] excerpt) {
        SegmentCursor cursor = new SegmentCursor();
        cursor.bindForRead(MemorySegment.ofArray(Objects.requireNonNull(excerpt, "excerpt")), 0, excerpt.length);
        return cursor;
    }

    /** {@link #toTree(ExcerptBytes)} as compact JSON text. */
    public static String toJson(ExcerptBytes bytes) {
        return toTree(bytes).toString();
    }

    /** {@link #toTree(ReadContext)} as compact JSON text. */
    public static String toJson(ReadContext context) {
        return toTree(context).toString();
    }

    /**
     * Appends a message naming {@code method} with arguments given as JSON trees, for tools that have the data but
     * not the interface: booleans, integers (as int when they fit, else long), other numbers (as double), strings
     * and null travel as such, objects and arrays as documents; docs/messages.md says how readers widen them.
     *
     * @return the index of the excerpt written
     */
    public static long write(ExcerptAppender appender, String method, List<? extends JsonNode> arguments) {
        return MessageEngines.engine().write(appender, method, arguments);
    }
}
