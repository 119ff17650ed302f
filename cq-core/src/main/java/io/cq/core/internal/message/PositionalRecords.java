package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;

/**
 * Turns the values of a positional record message ({@link MessageLayout#RECORD}) back into the document its names
 * make of them: an indefinite-length CBOR map, each name a definite-length text key before its value, exactly what a
 * writer writes as a record document ({@link RecordEncoder}). Readers then decode it through Jackson, by name, as
 * they decode a document written by a writer with another version of the record (which {@link RecordDecoder} leaves
 * to Jackson too), so that a record with other components than the writer's reads the components it shares.
 * Reuses its buffers: it allocates only when a record is larger than any before it. One per reader, confined to its
 * thread.
 */
final class PositionalRecords {
    private byte[] values = new byte[256];
    private final GrowableOutput document = new GrowableOutput();
    private long[] workspace;

    /**
     * Reads {@code length} bytes of values at the cursor and writes the document of {@code names} and those values.
     *
     * @throws IllegalArgumentException when the values are not as many CBOR items as there are names, or one is
     *     malformed or beyond the decoding limits
     */
    void rewrite(ExcerptBytes bytes, int length, byte[][] names) {
        if (values.length < length) {
            values = new byte[Math.max(length, values.length * 2)];
        }
        bytes.readBytes(values, 0, length);
        rewrite(values, length, names);
    }

    /** As {@link #rewrite(ExcerptBytes, int, byte[][])}, from the values in {@code data[0, length)}. */
    void rewrite(byte[] data, int length, byte[][] names) {
        GrowableOutput out = document;
        out.reset();
        out.write(Cbor.INDEFINITE_MAP);
        int at = 0;
        for (byte[] name : names) {
            if (at >= length) {
                throw new IllegalArgumentException("the record holds fewer values than its type's " + names.length
                        + " names " + MessageTypes.describe(names));
            }
            int end = CborLimits.check(data, at, length - at, workspace());
            textHeader(out, name.length);
            out.write(name, 0, name.length);
            out.write(data, at, end - at);
            at = end;
        }
        if (at != length) {
            throw new IllegalArgumentException("the record holds more values than its type's " + names.length
                    + " names " + MessageTypes.describe(names));
        }
        out.write(Cbor.BREAK);
    }

    /** The document written last. */
    byte[] buffer() {
        return document.buffer();
    }

    int count() {
        return document.count();
    }

    private long[] workspace() {
        long[] w = workspace;
        if (w == null) {
            w = workspace = CborLimits.workspace();
        }
        return w;
    }

    /** A text head with the length in its shortest form; names are at most 255 bytes ({@link MessageTypes}). */
    private static void textHeader(GrowableOutput out, int length) {
        int major = Cbor.MAJOR_TEXT << 5;
        if (length < 24) {
            out.write(major | length);
        } else {
            out.write(major | 24);
            out.write(length);
        }
    }
}
