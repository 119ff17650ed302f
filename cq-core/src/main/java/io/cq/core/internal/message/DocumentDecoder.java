package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.exc.InvalidTypeIdException;

/**
 * Decodes the documents of a message, after their tag: a record with a plan straight from the excerpt
 * ({@link RecordDecoder}), anything else through Jackson after {@link CborLimits} checked it. A positional record
 * ({@link MessageLayout#RECORD}) is read straight from the excerpt too when the reader's record is the writer's;
 * else (or where that does not decode it) it is made into the document its type's names make of it
 * ({@link PositionalRecords}), with the names of the queue's {@link MessageTypes}, and read by Jackson. The buffers
 * are created with the first document that needs them: a reader of self-written messages never does. One per
 * {@link ArgumentDecoder}.
 */
final class DocumentDecoder {
    /** A document that does not decode, for the caller to report with the excerpt's index and argument. */
    static final class Failure extends RuntimeException {
        Failure(String problem, Throwable cause) {
            super(problem, cause);
        }
    }

    private byte[] scratch = new byte[256];
    private RecordDecoder records;
    private long[] limitsWorkspace;
    private PositionalRecords positional;
    /** The reader's queue's types, or null: then only those known to the JVM. */
    private MessageTypes types;

    void types(MessageTypes queueTypes) {
        this.types = queueTypes;
    }

    /** The value of the document whose tag was just read, leaving the cursor after it. */
    Object read(ExcerptBytes bytes, byte tag, ObjectReader reader, RecordPlan plan) {
        int length;
        long start;
        try {
            length = tag == MessageLayout.DOCUMENT ? bytes.readInt() : MessageLayout.readLength(bytes);
            start = bytes.position();
            if (length < 0 || length > bytes.remaining()) {
                throw new Failure("a document of " + length + " bytes does not fit in the " + bytes.remaining()
                        + " left", null);
            }
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw new Failure("the document is cut short or its length malformed", e);
        }
        if (tag == MessageLayout.RECORD) {
            return record(bytes, length, reader, plan);
        }
        if (plan != null) {
            long limit = bytes.readLimit();
            bytes.readLimit(start + length);
            Object value;
            try {
                value = records().read(bytes, plan);
            } finally {
                bytes.readLimit(limit);
            }
            if (value != RecordDecoder.NOT_DECODED) {
                return value;
            }
            bytes.position(start);
        }
        if (scratch.length < length) {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        bytes.readBytes(scratch, 0, length);
        return jackson(reader, scratch, length);
    }

    /** A positional record of {@code length} bytes at the cursor: its type id, then its values. */
    private Object record(ExcerptBytes bytes, int length, ObjectReader reader, RecordPlan plan) {
        if (length < Long.BYTES) {
            throw new Failure("a record of " + length + " bytes has no room for its type id", null);
        }
        long id = bytes.readLong();
        long values = bytes.position();
        int valuesLength = length - Long.BYTES;
        boolean same = plan != null && plan.typeId == id;
        if (same) {
            // the writer's record: its values in order, straight from the excerpt
            long limit = bytes.readLimit();
            bytes.readLimit(values + valuesLength);
            Object value;
            try {
                value = records().readValues(bytes, plan);
            } finally {
                bytes.readLimit(limit);
            }
            if (value != RecordDecoder.NOT_DECODED) {
                return value;
            }
            bytes.position(values);
        }
        byte[][] names = same ? plan.names : types != null ? types.names(id) : MessageTypes.known(id);
        if (names == null) {
            throw new Failure("record type " + Long.toHexString(id) + " is defined neither in "
                    + (types != null ? "the queue's " + MessageTypes.FILE_NAME + " nor" : "")
                    + " in any record types file this JVM has read: its field names are unknown", null);
        }
        PositionalRecords p = positional();
        try {
            p.rewrite(bytes, valuesLength, names);
        } catch (IllegalArgumentException e) {
            throw new Failure("the record is malformed or beyond the decoding limits: " + e.getMessage(), e);
        }
        // Another version of the record (or values RecordDecoder leaves to Jackson): Jackson reads by name, as it
        // reads a document whose keys are not the reader's components.
        return jackson(reader, p.buffer(), p.count());
    }

    private Object jackson(ObjectReader reader, byte[] document, int length) {
        try {
            CborLimits.check(document, 0, length, limitsWorkspace());
        } catch (IllegalArgumentException e) {
            throw new Failure("the document is malformed or beyond the decoding limits: " + e.getMessage(), e);
        }
        try {
            return reader.readValue(document, 0, length);
        } catch (InvalidTypeIdException e) {
            throw new Failure("type " + e.getTypeId() + " is not allowed here: a reader instantiates only types "
                    + "reachable from its handlers' parameter types and those added with "
                    + "MethodReaderBuilder.allowTypes; refused", e);
        } catch (JacksonException e) {
            throw new Failure("the document does not decode as " + reader.getValueType() + ": "
                    + e.getOriginalMessage(), e);
        } catch (RuntimeException e) {
            // e.g. a record's constructor refusing a value: the excerpt will never decode, so it is not retried
            throw new Failure("the document does not decode as " + reader.getValueType() + ": " + e, e);
        }
    }

    private RecordDecoder records() {
        RecordDecoder r = records;
        if (r == null) {
            r = records = new RecordDecoder();
        }
        return r;
    }

    private PositionalRecords positional() {
        PositionalRecords p = positional;
        if (p == null) {
            p = positional = new PositionalRecords();
        }
        return p;
    }

    private long[] limitsWorkspace() {
        long[] w = limitsWorkspace;
        if (w == null) {
            w = limitsWorkspace = CborLimits.workspace();
        }
        return w;
    }
}
