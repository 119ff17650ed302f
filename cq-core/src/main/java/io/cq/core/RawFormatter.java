package io.cq.core;

import java.io.IOException;

/** {@link ExcerptFormatter#raw()}: printable UTF-8 as quoted text, anything else as hex; the first 1 KiB only. */
final class RawFormatter implements ExcerptFormatter {
    static final RawFormatter INSTANCE = new RawFormatter();
    private static final int SHOWN_BYTES = 1024;

    private RawFormatter() {
    }

    @Override
    public void format(ExcerptBytes excerpt, Appendable out) throws IOException {
        int length = (int) excerpt.length();
        int shown = Math.min(length, SHOWN_BYTES);
        byte[] bytes = new byte[shown];
        excerpt.readBytes(bytes);
        String text = ExcerptFormatter.printableText(bytes, true);
        if (text != null) {
            out.append('"').append(text).append('"');
        } else {
            for (byte b : bytes) {
                out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
        }
        if (shown < length) {
            out.append(" ... (").append(String.valueOf(length - shown)).append(" more bytes)");
        }
    }
}
