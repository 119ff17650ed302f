package io.cq.cli;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptFormatter;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.HexFormat;
import java.util.Map;

/**
 * How the commands show an excerpt. A message (docs/messages.md) shows as its method name and its arguments as
 * JSON, decoded without its interface and without loading any class the data names; printable UTF-8 shows as
 * text; anything else as hex. Reads the excerpt from its current position.
 */
class ExcerptRenderer {
    /** Longest hex rendering, in bytes of the excerpt; the rest is counted, not shown. */
    private static final int HEX_LIMIT = 4096;

    /** The excerpt as text; on one line when {@code oneLine} (messages always are). */
    String text(ExcerptBytes excerpt, boolean oneLine) {
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

    /** The excerpt on one line, text in double quotes so that it cannot be mistaken for hex. */
    String quoted(ExcerptBytes excerpt) {
        ObjectNode message = message(excerpt);
        if (message != null) {
            return messageText(message);
        }
        byte[] bytes = remainingBytes(excerpt);
        String text = printableText(bytes);
        return text == null ? hex(bytes) : '"' + text.replace("\n", "\\n") + '"';
    }

    /**
     * Adds the excerpt to a JSON object: {@code method}, {@code arguments} (and {@code history}) for a message,
     * {@code text} for text, {@code bytes} in base64 otherwise.
     */
    void json(ExcerptBytes excerpt, ObjectNode into) {
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

    /** {@code method [arguments]}, then the history when there is one: one line. */
    static String messageText(ObjectNode message) {
        StringBuilder text = new StringBuilder();
        String method = message.path("method").asString("");
        // A name is shown as it is only when it cannot move the terminal's cursor or pass for something else: any
        // other (control characters, spaces) is shown as a JSON string, escaped.
        text.append(method.isEmpty() ? "(object)" : isPlainName(method) ? method : JsonText.of(message.path("method")))
                .append(' ')
                .append(JsonText.of(message.path("arguments")));
        if (message.has("history")) {
            text.append(" history=").append(JsonText.of(message.get("history")));
        }
        if (message.has("malformed")) {
            text.append(" (").append(message.get("malformed").asString()).append(')');
        }
        return text.toString();
    }

    static boolean isPlainName(String name) {
        return !name.isEmpty() && name.codePoints().allMatch(c -> !Character.isISOControl(c)
                && !Character.isWhitespace(c) && Character.getType(c) != Character.FORMAT);
    }

    /**
     * The message as a tree, or null when the excerpt is not a message. A malformed message becomes a tree that
     * says so and shows the bytes, rather than stopping the listing.
     */
    private static ObjectNode message(ExcerptBytes excerpt) {
        if (!Messages.isMessage(excerpt)) {
            return null;
        }
        try {
            return Messages.toTree(excerpt);
        } catch (MessageDecodingException e) {
            ObjectNode malformed = JsonNodeFactory.instance.objectNode();
            malformed.put("method", "(malformed message)");
            malformed.putArray("arguments").add(hex(remainingBytes(excerpt)));
            malformed.put("malformed", e.getMessage());
            return malformed;
        }
    }

    static byte[] remainingBytes(ExcerptBytes excerpt) {
        byte[] bytes = new byte[(int) excerpt.remaining()];
        excerpt.readBytes(bytes);
        return bytes;
    }

    static String hex(byte[] bytes) {
        if (bytes.length <= HEX_LIMIT) {
            return HexFormat.of().formatHex(bytes);
        }
        return HexFormat.of().formatHex(bytes, 0, HEX_LIMIT) + " ... (" + (bytes.length - HEX_LIMIT) + " more bytes)";
    }

    /** The bytes as text when they are valid UTF-8 without control characters other than tab and newline, else null. */
    static String printableText(byte[] bytes) {
        return ExcerptFormatter.printableText(bytes, false);
    }
}
