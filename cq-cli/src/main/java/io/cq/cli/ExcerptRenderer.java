package io.cq.cli;

import io.cq.core.ExcerptBytes;
import io.cq.core.internal.queue.QueueDumper;
import tools.jackson.databind.node.ObjectNode;

import java.util.HexFormat;

/**
 * How the commands show an excerpt: printable UTF-8 as text, anything else as hex. Reads the excerpt from its
 * current position, which it leaves at the end.
 */
class ExcerptRenderer {
    /** Longest hex rendering, in bytes of the excerpt; the rest is counted, not shown. */
    private static final int HEX_LIMIT = 4096;

    /** The excerpt as text; on one line when {@code oneLine}. */
    String text(ExcerptBytes excerpt, boolean oneLine) {
        byte[] bytes = remainingBytes(excerpt);
        String text = printableText(bytes);
        if (text == null) {
            return hex(bytes);
        }
        return oneLine ? text.replace("\n", "\\n") : text;
    }

    /** The excerpt on one line, text in double quotes so that it cannot be mistaken for hex. */
    String quoted(ExcerptBytes excerpt) {
        byte[] bytes = remainingBytes(excerpt);
        String text = printableText(bytes);
        return text == null ? hex(bytes) : '"' + text.replace("\n", "\\n") + '"';
    }

    /** Adds the excerpt to a JSON object: {@code text}, or {@code bytes} in base64 when it is not text. */
    void json(ExcerptBytes excerpt, ObjectNode into) {
        byte[] bytes = remainingBytes(excerpt);
        String text = printableText(bytes);
        if (text != null) {
            into.put("text", text);
        } else {
            into.put("bytes", bytes);
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
        return QueueDumper.printableText(bytes, false);
    }
}
