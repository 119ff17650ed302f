package io.cq.test;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import org.jspecify.annotations.Nullable;

import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.function.Function;

/**
 * A copy of one excerpt, as a {@link QueueProbe} read it: its index, its bytes and, for a message written by the
 * message layer (a method writer, {@code Messages.writeObject}, {@code QueueTemplate.append}), the method it names
 * and its JSON form. {@link #toString()} summarises it in one line, as failure messages show it.
 *
 * <p>Immutable and thread-safe. {@link #as(Class)} and {@link #read(Function)} read the excerpt again from its queue,
 * with an unnamed tailer of their own, so they need the queue to be open; everything else works on the copy.
 */
public final class QueueExcerpt {
    /** Longest text or JSON a summary shows before it is cut. */
    private static final int SUMMARY_CHARS = 160;
    private static final int SUMMARY_BYTES = 32;

    private final MappedQueue queue;
    private final int ordinal;
    private final long index;
    private final byte[] bytes;
    private final @Nullable String methodName;
    private final @Nullable String json;
    /** Why a message excerpt could not be shown as JSON, or null. */
    private final @Nullable String malformed;

    private QueueExcerpt(MappedQueue queue, int ordinal, long index, byte[] bytes, @Nullable String methodName,
                         @Nullable String json, @Nullable String malformed) {
        this.queue = queue;
        this.ordinal = ordinal;
        this.index = index;
        this.bytes = bytes;
        this.methodName = methodName;
        this.json = json;
        this.malformed = malformed;
    }

    /** Copies the excerpt being read; leaves the context's cursor where it was. */
    static QueueExcerpt copyOf(MappedQueue queue, int ordinal, ReadContext context) {
        byte[] bytes = context.bytes().segment().toArray(ValueLayout.JAVA_BYTE);
        if (!Messages.isMessage(context.bytes())) {
            return new QueueExcerpt(queue, ordinal, context.index(), bytes, null, null, null);
        }
        try {
            return new QueueExcerpt(queue, ordinal, context.index(), bytes, Messages.methodName(context.bytes()),
                    Messages.toJson(context), null);
        } catch (MessageDecodingException e) {
            return new QueueExcerpt(queue, ordinal, context.index(), bytes, null, null, e.getMessage());
        }
    }

    /** How many excerpts come before this one in its queue, counted from the queue's first: 0 for the first. */
    public int ordinal() {
        return ordinal;
    }

    /** The excerpt's index in its queue ({@code ReadContext.index()}). */
    public long index() {
        return index;
    }

    /** A copy of the excerpt's bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The excerpt's length in bytes. */
    public int length() {
        return bytes.length;
    }

    /**
     * The bytes as UTF-8 text: what {@code writeText}, {@code QueueTemplate.appendText} and a {@code String} payload
     * wrote, and what a {@code @QueueListener} with a {@code String} parameter receives.
     */
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Whether the message layer wrote the excerpt (a method writer's call or an object). */
    public boolean isMessage() {
        return methodName != null;
    }

    /**
     * The method a message names: a method writer's method, or {@code ""} for an object written by
     * {@code Messages.writeObject} or {@code QueueTemplate.append}; null when the excerpt is not a message.
     */
    public @Nullable String methodName() {
        return methodName;
    }

    /**
     * The message as JSON, as {@code cq dump} shows it: {@code {"method":"onOrder","arguments":[{...}]}}.
     *
     * @throws IllegalStateException when the excerpt is not a message
     */
    public String json() {
        if (json == null) {
            throw new IllegalStateException(this + ": not a message, so it has no JSON form");
        }
        return json;
    }

    /**
     * The object of a message (the object of {@code writeObject} or {@code QueueTemplate.append}, or a method
     * writer's first argument) decoded as {@code type}, exactly as a {@code @QueueListener} parameter of that type
     * receives it.
     *
     * @throws MessageDecodingException when the excerpt is not a message or does not decode as a {@code type}
     * @throws IllegalStateException    when the queue no longer holds the excerpt
     */
    public <T> T as(Class<T> type) {
        return reread(context -> Messages.readObject(context, type));
    }

    /**
     * What {@code reader} makes of the excerpt's bytes, read from their start: for excerpts laid out by hand
     * ({@code bytes -> bytes.readUtf8() + " " + bytes.readInt()}). The cursor is valid only during the call.
     *
     * @throws IllegalStateException when the queue no longer holds the excerpt
     */
    public <T> T read(Function<? super ExcerptBytes, ? extends T> reader) {
        return reread(context -> reader.apply(context.bytes()));
    }

    private <T> T reread(Function<ReadContext, ? extends T> decoder) {
        try (ExcerptTailer tailer = queue.createTailer()) {
            if (!tailer.moveToIndex(index)) {
                throw new IllegalStateException(this + ": the queue " + queue.path() + " no longer holds it");
            }
            try (ReadContext context = tailer.readingDocument()) {
                return decoder.apply(context);
            }
        }
    }

    /** One line: ordinal, index, then the text, the message as JSON, or the first bytes in hex, cut when long. */
    @Override
    public String toString() {
        String head = "#" + ordinal + " (index 0x" + Long.toHexString(index) + ") ";
        if (methodName != null) {
            return head + (methodName.isEmpty() ? "object " : "call " + methodName + " ") + cut(json());
        }
        if (malformed != null) {
            return head + "malformed message, " + bytes.length + " bytes: " + malformed;
        }
        String text = printableText();
        if (text != null) {
            return head + "text \"" + cut(text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
                    .replace("\t", "\\t")) + "\"";
        }
        int shown = Math.min(bytes.length, SUMMARY_BYTES);
        return head + bytes.length + " bytes " + HexFormat.of().formatHex(bytes, 0, shown)
                + (shown < bytes.length ? "..." : "");
    }

    /** The bytes as text when they are valid UTF-8 without control characters other than line breaks and tabs. */
    private @Nullable String printableText() {
        CharBuffer chars;
        try {
            chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
        } catch (CharacterCodingException e) {
            return null;
        }
        String text = chars.toString();
        boolean printable = text.chars().allMatch(c -> !Character.isISOControl(c) || c == '\n' || c == '\r'
                || c == '\t');
        return printable ? text : null;
    }

    private static String cut(String text) {
        return text.length() <= SUMMARY_CHARS ? text
                : text.substring(0, SUMMARY_CHARS) + "... (" + text.length() + " chars)";
    }
}
