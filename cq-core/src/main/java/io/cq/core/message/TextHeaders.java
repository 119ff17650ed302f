package io.cq.core.message;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Text name/value pairs that travel with a message excerpt, after its arguments (docs/file-format.md, "Message
 * excerpts"): what a trace context ({@code traceparent}, {@code tracestate}, {@code baggage}) needs to cross a
 * queue. Readers that do not look for them, including those of cq versions before headers, read the message as
 * if they were not there.
 *
 * <p>Write them with a method writer built with {@link MethodWriterBuilder#headers(TextHeaders)} or with
 * {@link Messages#writeObject(io.cq.core.ExcerptAppender, Object, TextHeaders)}: each message carries the pairs
 * this object holds when it is written, none when it is empty. Read them with
 * {@link Messages#readHeaders(io.cq.core.ExcerptBytes, TextHeaders)}.
 *
 * <p>Names are compared exactly (case matters) and are unique: {@link #put} replaces. At most
 * {@value #MAX_HEADERS} pairs. A reusable, mutable holder that allocates only when it grows: not thread-safe,
 * keep one per writing or reading thread.
 */
public final class TextHeaders {
    /** The most pairs a message carries. */
    public static final int MAX_HEADERS = 255;

    private String[] names = new String[4];
    private String[] values = new String[4];
    private int size;

    /**
     * Sets {@code name} to {@code value}, replacing an earlier value of that name.
     *
     * @throws IllegalArgumentException when the name is empty, or when {@value #MAX_HEADERS} other names are held
     */
    public TextHeaders put(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a header name must not be empty");
        }
        int at = indexOf(name);
        if (at >= 0) {
            values[at] = value;
            return this;
        }
        if (size == MAX_HEADERS) {
            throw new IllegalArgumentException("a message carries at most " + MAX_HEADERS + " headers; cannot add '"
                    + name + "'");
        }
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size] = value;
        size++;
        return this;
    }

    /** The value of {@code name}, or null when there is none. */
    public String get(String name) {
        int at = indexOf(name);
        return at < 0 ? null : values[at];
    }

    private int indexOf(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Number of pairs held. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The name of the {@code i}-th pair, in the order they were first put. */
    public String name(int i) {
        return names[Objects.checkIndex(i, size)];
    }

    /** The value of the {@code i}-th pair. */
    public String value(int i) {
        return values[Objects.checkIndex(i, size)];
    }

    /** Forgets every pair, keeping the arrays for the next message. */
    public void clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    /** A copy of the pairs, in order. */
    public Map<String, String> toMap() {
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
            map.put(names[i], values[i]);
        }
        return map;
    }

    @Override
    public String toString() {
        return "TextHeaders" + toMap();
    }
}
