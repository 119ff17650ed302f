package io.cq.core.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptFormatter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

/**
 * How tools show an excerpt without knowing the interfaces that wrote it: {@code cq tail}, {@code cq dump} and the
 * Spring Boot starter's console render excerpts the same way, through this class. A message (docs/messages.md)
 * shows as its method name and its arguments as JSON (with its history and headers, when it carries them), decoded
 * without loading any class the data names; printable UTF-8 shows as text; anything else as hex. A malformed
 * message shows as a message that says what is wrong with it, and its bytes, rather than as an error.
 *
 * <p>The methods that take an {@link ExcerptBytes} read it from its current position (messages always from its
 * start). Thread-safe (stateless).
 */
public final class ExcerptRendering {
    /** Longest hex rendering, in bytes of the excerpt; the rest is counted, not shown. */
    public static final int HEX_LIMIT = 4096;

    /** The method name a malformed message shows with. */
    public static final String MALFORMED = "(malformed message)";

    private ExcerptRendering() {
    }

    /**
     * Renders the record messages of the queue in {@code directory} with their field names: record messages hold
     * their values only, their names being in the queue's record types file (docs/file-format.md, "Record types"),
     * which this reads now and again whenever a record of a type not yet known is met. Method writers and readers
     * of a queue do this for it by themselves; a tool that only renders calls it once per queue it opens.
     */
    public static void useRecordTypesOf(Path directory) {
        MessageEngines.engine().useRecordTypesOf(directory);
    }

    /** The excerpt as text, as {@code cq tail} prints it; on one line when {@code oneLine} (messages always are). */
    public static String text(ExcerptBytes excerpt, boolean oneLine) {
        ObjectNode message = message(excerpt);
        if (message != null) {
            return messageText(message);
        }
        byte[] bytes = remainingBytes(excerpt);
        String text = printableText(bytes);
        if (text == null) {
            return hex(bytes);
        }
        return oneLine ? text.replace("\n", "\\n") : text;
    }

    /** The excerpt on one line, text in double quotes so that it cannot be mistaken for hex, as {@code cq dump}. */
    public static String quoted(ExcerptBytes excerpt) {
        ObjectNode message = message(excerpt);
        if (message != null) {
            return messageText(message);
        }
        byte[] bytes = remainingBytes(excerpt);
        String text = printableText(bytes);
        return text == null ? hex(bytes) : '"' + text.replace("\n", "\\n") + '"';
    }

    /**
     * Adds the excerpt to a JSON object as {@code cq tail --format json} does: {@code method}, {@code arguments} (and
     * {@code history}, {@code headers}) for a message, {@code text} for text, {@code bytes} (binary, base64 in JSON
     * text) otherwise.
     */
    public static void json(ExcerptBytes excerpt, ObjectNode into) {
        ObjectNode message = message(excerpt);
        if (message != null) {
            for (Map.Entry<String, JsonNode> field : message.properties()) {
                into.set(field.getKey(), field.getValue());
            }
            return;
        }
        byte[] bytes = remainingBytes(excerpt);
        String text = printableText(bytes);
        if (text != null) {
            into.put("text", text);
        } else {
            into.put("bytes", bytes);
        }
    }

    /**
     * The message as a tree ({@link Messages#toTree(ExcerptBytes)}), or null when the excerpt is not a message. A
     * malformed message becomes a tree that says so: {@code method} {@value #MALFORMED}, its bytes in hex as the one
     * argument, and the decoding error in {@code malformed}.
     */
    public static ObjectNode message(ExcerptBytes excerpt) {
        if (!Messages.isMessage(excerpt)) {
            return null;
        }
        try {
            return Messages.toTree(excerpt);
        } catch (MessageDecodingException e) {
            ObjectNode malformed = JsonNodeFactory.instance.objectNode();
            malformed.put("method", MALFORMED);
            malformed.putArray("arguments").add(hex(remainingBytes(excerpt)));
            malformed.put("malformed", e.getMessage());
            return malformed;
        }
    }

    /** {@code method [arguments]}, then the history when there is one, on one line: a message as {@code cq tail}. */
    public static String messageText(ObjectNode message) {
        StringBuilder text = new StringBuilder();
        String method = message.path("method").asString("");
        // A name is shown as it is only when it cannot move the terminal's cursor or pass for something else: any
        // other (control characters, spaces) is shown as a JSON string, escaped.
        text.append(method.isEmpty() ? "(object)" : isPlainName(method) ? method : json(message.path("method")))
                .append(' ')
                .append(json(message.path("arguments")));
        if (message.has("history")) {
            text.append(" history=").append(json(message.get("history")));
        }
        if (message.has("malformed")) {
            text.append(" (").append(message.get("malformed").asString()).append(')');
        }
        return text.toString();
    }

    /** Whether a method name can be shown as it is: no control, space or format characters. */
    public static boolean isPlainName(String name) {
        return !name.isEmpty() && name.codePoints().allMatch(c -> !Character.isISOControl(c)
                && !Character.isWhitespace(c) && Character.getType(c) != Character.FORMAT);
    }

    /**
     * A JSON tree as compact JSON text, character for character what Jackson's {@code JsonMapper} writes, without
     * building a mapper (the first of a JVM costs a tenth of a second).
     */
    public static String json(JsonNode node) {
        return JsonText.of(node);
    }

    /** The bytes in hex, the first {@value #HEX_LIMIT} only, followed by how many more there are. */
    public static String hex(byte[] bytes) {
        return hex(bytes, bytes.length, HEX_LIMIT);
    }

    /**
     * The first {@code length} bytes of {@code bytes} in hex, at most {@code limit} of them, followed by how many
     * more the excerpt holds when that is fewer than {@code totalLength}.
     *
     * @param totalLength the length of the whole excerpt, of which {@code bytes} may be the start only
     */
    public static String hex(byte[] bytes, long totalLength, int limit) {
        int shown = (int) Math.min(Math.min(bytes.length, totalLength), limit);
        String hex = HexFormat.of().formatHex(bytes, 0, shown);
        return shown < totalLength ? hex + " ... (" + (totalLength - shown) + " more bytes)" : hex;
    }

    /** The bytes as text when they are valid UTF-8 without control characters other than tab and newline, else null. */
    public static String printableText(byte[] bytes) {
        return ExcerptFormatter.printableText(bytes, false);
    }

    /** The bytes from the cursor's position to its read limit. */
    public static byte[] remainingBytes(ExcerptBytes excerpt) {
        byte[] bytes = new byte[(int) excerpt.remaining()];
        excerpt.readBytes(bytes);
        return bytes;
    }
}
