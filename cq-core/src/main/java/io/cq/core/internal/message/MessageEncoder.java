package io.cq.core.internal.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.WriteContext;
import io.cq.core.message.BytesMessage;
import io.cq.core.message.MessageHistory;
import io.cq.core.message.TextHeaders;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.ObjectWriter;

import java.util.Arrays;

/**
 * What a generated method writer calls: {@link #begin(int)}, one {@code arg...} per parameter, {@link #end()}.
 * Writes one message excerpt per call in the layout of {@link MessageLayout}. Primitives go straight to the
 * cursor and records that qualify are encoded without Jackson ({@link RecordEncoder}), so a call whose arguments
 * are primitives, strings, {@link BytesMessage}s or such records allocates nothing.
 *
 * <p>Public only so that hidden classes generated in the interface's package can call it; not an API.
 * Confined to its appender's thread, like the appender.
 */
public final class MessageEncoder {
    private final ExcerptAppender appender;
    private final byte[][] names;
    private final int[] argumentCounts;
    private final ObjectWriter[][] documentWriters;
    private final RecordEncoder[][] recordEncoders;
    private final boolean history;
    private final int sourceId;
    /** The caller's holder, written with every message while it holds pairs; null for a writer without headers. */
    private final TextHeaders headers;
    private final GrowableOutput document = new GrowableOutput();
    /** The queue's record types, or null for a writer that writes records with their names. */
    private final MessageTypes types;
    /** The record types this writer has asked {@link #types} about, and whether it writes them positionally. */
    private long[] typeIds = new long[4];
    private boolean[] positional = new boolean[4];
    private int typeCount;
    /** Per method: whether the types of its record parameters have been looked up (before the lock: see begin). */
    private final boolean[] typesLookedUp;
    /** A record type met under the write lock (an {@code Object} parameter) and not looked up yet: done after it. */
    private RecordPlan lookUpAfter;
    /** One generator for every document this encoder writes: creating one per message costs about 1 KB. */
    private JsonGenerator generator;

    private WriteContext context;
    private ExcerptBytes bytes;
    private ObjectWriter[] writers;
    private RecordEncoder[] encoders;
    private int argument;
    private boolean withHeaders;

    MessageEncoder(ExcerptAppender appender, WriterPlan plan, boolean history, int sourceId, TextHeaders headers,
                   boolean positionalRecords) {
        this.appender = appender;
        this.types = positionalRecords ? MessageTypes.of(appender) : null;
        this.names = plan.names();
        this.argumentCounts = plan.argumentCounts();
        this.documentWriters = plan.documentWriters();
        this.recordEncoders = plan.recordEncoders();
        this.typesLookedUp = new boolean[names.length];
        this.history = history;
        this.sourceId = sourceId;
        this.headers = headers;
    }

    /** Opens the excerpt for the {@code method}-th method of the plan and writes everything before the arguments. */
    public void begin(int method) {
        if (!typesLookedUp[method]) {
            lookUpTypes(method);
        }
        final WriteContext c = appender.writingDocument();
        context = c;
        bytes = c.bytes();
        writers = documentWriters[method];
        encoders = recordEncoders[method];
        argument = 0;
        try {
            final ExcerptBytes b = bytes;
            b.writeInt(MessageLayout.MAGIC);
            final TextHeaders h = headers;
            withHeaders = h != null && !h.isEmpty();
            int flags = (history ? MessageLayout.FLAG_HISTORY : 0) | (withHeaders ? MessageLayout.FLAG_HEADERS : 0);
            b.writeByte((byte) flags);
            if (history) {
                MessageLayout.writeHistory(b, MessageHistory.current(), sourceId, c.index());
            }
            final byte[] name = names[method];
            b.writeByte((byte) name.length).writeBytes(name);
            b.writeByte((byte) argumentCounts[method]);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    /** Writes the headers section, when the message has one, and publishes the excerpt. */
    public void end() {
        if (withHeaders) {
            try {
                MessageLayout.writeHeaders(bytes, headers);
            } catch (Throwable t) {
                abandon();
                throw t;
            }
        }
        final WriteContext c = context;
        context = null;
        bytes = null;
        c.close();
        if (lookUpAfter != null) {
            RecordPlan plan = lookUpAfter;
            lookUpAfter = null;
            positional(plan);
        }
    }

    /**
     * Looks up the types of the method's record parameters in the queue's types file before the write lock is taken:
     * defining one writes and forces the file, which must not hold up every writer of the queue (the lock's rule:
     * nothing under it waits on the outside world).
     */
    private void lookUpTypes(int method) {
        for (RecordEncoder encoder : recordEncoders[method]) {
            if (encoder != null && encoder != RecordEncoder.BY_RUNTIME_CLASS) {
                positional(encoder.plan());
            }
        }
        typesLookedUp[method] = true;
    }

    public void argBoolean(boolean value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.BOOLEAN).writeBoolean(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argByte(byte value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.BYTE).writeByte(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argShort(short value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.SHORT).writeShort(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argChar(char value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.CHAR).writeChar(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argInt(int value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.INT).writeInt(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argLong(long value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.LONG).writeLong(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argFloat(float value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.FLOAT).writeFloat(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argDouble(double value) {
        argument++;
        try {
            bytes.writeByte(MessageLayout.DOUBLE).writeDouble(value);
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argText(CharSequence value) {
        argument++;
        try {
            if (value == null) {
                bytes.writeByte(MessageLayout.NULL);
            } else {
                bytes.writeByte(MessageLayout.TEXT).writeUtf8(value);
            }
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argMessage(BytesMessage value) {
        argument++;
        try {
            final ExcerptBytes b = bytes;
            if (value == null) {
                b.writeByte(MessageLayout.NULL);
                return;
            }
            b.writeByte(MessageLayout.SELF_WRITTEN);
            long lengthAt = b.position();
            b.writeInt(0);
            value.writeTo(b);
            // The length goes in once the message has written itself, so readers can skip what they do not read.
            b.writeIntAt(lengthAt, (int) (b.position() - lengthAt - Integer.BYTES));
        } catch (Throwable t) {
            abandon();
            throw t;
        }
    }

    public void argObject(Object value) {
        final int slot = argument++;
        try {
            if (value == null) {
                bytes.writeByte(MessageLayout.NULL);
                return;
            }
            document.reset();
            RecordEncoder encoder = encoders[slot];
            if (encoder == RecordEncoder.BY_RUNTIME_CLASS) {
                encoder = RecordEncoder.of(value.getClass());
            }
            final ExcerptBytes b = bytes;
            if (encoder != null && positionalUnderLock(encoder.plan())) {
                if (encoder.writeValues(value, document)) {
                    b.writeByte(MessageLayout.RECORD);
                    MessageLayout.writeLength(b, Long.BYTES + document.count());
                    b.writeLong(encoder.plan().typeId).writeBytes(document.buffer(), 0, document.count());
                    return;
                }
                document.reset();
                encoder = null; // a value only Jackson writes (or refuses): the document with names, as Jackson has it
            }
            if (encoder == null || !encoder.write(value, document)) {
                document.reset();
                writers[slot].writeValue(generator(), value);
            }
            b.writeByte(MessageLayout.COMPACT_DOCUMENT);
            MessageLayout.writeLength(b, document.count());
            b.writeBytes(document.buffer(), 0, document.count());
        } catch (Throwable t) {
            generator = null; // it may be left inside an unfinished document
            abandon();
            throw t;
        }
    }

    /**
     * Under the write lock: whether records of {@code plan} go positionally, as looked up before; a type not looked up
     * yet (a record in an {@code Object} parameter) is written with its names this once, and looked up after the
     * excerpt is published and the lock released.
     */
    private boolean positionalUnderLock(RecordPlan plan) {
        final long id = plan.typeId;
        for (int i = 0; i < typeCount; i++) {
            if (typeIds[i] == id) {
                return positional[i];
            }
        }
        if (types != null) {
            lookUpAfter = plan;
        }
        return false;
    }

    /**
     * Whether records of {@code plan} go positionally: asked of the queue's types once per type and writer, never under
     * the write lock, then remembered.
     */
    private boolean positional(RecordPlan plan) {
        final long id = plan.typeId;
        for (int i = 0; i < typeCount; i++) {
            if (typeIds[i] == id) {
                return positional[i];
            }
        }
        boolean usable = types != null && types.define(id, plan.names);
        if (typeCount == typeIds.length) {
            typeIds = Arrays.copyOf(typeIds, typeCount * 2);
            positional = Arrays.copyOf(positional, typeCount * 2);
        }
        typeIds[typeCount] = id;
        positional[typeCount++] = usable;
        return usable;
    }

    private JsonGenerator generator() {
        JsonGenerator g = generator;
        if (g == null) {
            g = generator = Cbor.SHARED.writer().createGenerator(document);
        }
        return g;
    }

    /** A failed call leaves no excerpt behind and releases the write lock, so the appender stays usable. */
    private void abandon() {
        lookUpAfter = null;
        final WriteContext c = context;
        context = null;
        bytes = null;
        if (c != null) {
            c.rollbackOnClose();
            c.close();
        }
    }
}
