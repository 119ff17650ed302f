package io.cq.core.message;

import io.cq.core.internal.message.MessageTrees;
import io.cq.core.internal.message.ObjectMessages;
import io.cq.core.internal.message.TreeMessages;
import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ReadContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * Shows message excerpts as text, for tools ({@code dump}, {@code tail}) that know nothing of the interfaces
 * that wrote them. Decoding builds JSON trees only: no class named by the data is loaded. The cursor's
 * position is left where it was.
 *
 * <pre>{@code
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

    /** Whether the excerpt is a message (written by a method writer or {@code writeObject}), not raw bytes. */
    public static boolean isMessage(ExcerptBytes bytes) {
        return MessageTrees.isMessage(bytes);
    }

    /**
     * The method a message excerpt names ({@code ""} for {@code writeObject}), or null when it is not a message.
     *
     * @throws MessageDecodingException when the message is malformed
     */
    public static String methodName(ExcerptBytes bytes) {
        return MessageTrees.methodName(bytes, -1);
    }

    /**
     * The message as a tree: {@code {"method": name, "arguments": [...], "history": {"sources": [{"sourceId",
     * "index"}...], "timings": [...]}}}, history only when the excerpt carries one. Documents become JSON
     * objects, arrays and values; a {@link BytesMessage} argument becomes {@code {"selfWrittenHex": "..."}}
     * because only its type can read it.
     *
     * @throws MessageDecodingException when the excerpt is not a message or is malformed
     */
    public static ObjectNode toTree(ExcerptBytes bytes) {
        return MessageTrees.toTree(bytes, -1);
    }

    /** {@link #toTree(ExcerptBytes)} of the excerpt being read; errors name its index. */
    public static ObjectNode toTree(ReadContext context) {
        return MessageTrees.toTree(context.bytes(), context.index());
    }

    /**
     * The first argument of the message being read (the object of {@code writeObject}, or a method writer's first
     * argument) as a {@code type}, with the allow-list of {@link io.cq.core.ExcerptTailer#readObject(Class)}.
     * Unlike {@code readObject} it does not move the tailer: closing the context commits, or rolls back after
     * {@link ReadContext#rollbackOnClose()}, so a consumer can decode first and commit after it has handled
     * the object. The cursor's position is left where it was.
     *
     * @throws MessageDecodingException when the excerpt is not a message or its first argument does not decode
     *                                  as a {@code type}
     */
    public static <T> T readObject(ReadContext context, Class<T> type) {
        return ObjectMessages.decode(context, type);
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
        return TreeMessages.write(appender, method, arguments);
    }
}
