package io.cq.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Renders one excerpt as text for {@link MappedQueue#dump(Appendable, ExcerptFormatter)}: the message layer
 * decodes its documents, the default shows printable UTF-8 as text and anything else as hex.
 */
@FunctionalInterface
public interface ExcerptFormatter {
    /**
     * Appends the excerpt's rendering (one line, no line break) to {@code out}.
     *
     * @param excerpt a read-only cursor over the whole excerpt, at position 0
     */
    void format(ExcerptBytes excerpt, Appendable out) throws IOException;

    /** The default: printable UTF-8 as quoted text, anything else as hex; the first 1 KiB of an excerpt only. */
    static ExcerptFormatter raw() {
        return RawFormatter.INSTANCE;
    }

    /**
     * The bytes as text when they are valid UTF-8 without control characters other than tab and newline, else
     * null; with {@code escaped}, tab and newline are shown as {@code \t} and {@code \n}.
     */
    static String printableText(byte[] bytes, boolean escaped) {
        if (bytes.length == 0) {
            return "";
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) && c != '\n' && c != '\t') {
                return null;
            }
        }
        return escaped ? text.replace("\n", "\\n").replace("\t", "\\t") : text;
    }
}
