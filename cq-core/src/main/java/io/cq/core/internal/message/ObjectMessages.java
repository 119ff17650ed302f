package io.cq.core.internal.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;
import io.cq.core.message.BytesMessage;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.TextHeaders;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.dataformat.cbor.CBORMapper;

/**
 * {@code writeObject} and {@code readObject}: a message with an empty method name and one document argument,
 * decoded as the class the caller asks for, with an allow-list of the types reachable from that class.
 */
public final class ObjectMessages {
    /** As if an interface had one method with an empty name and one {@code Object} parameter. */
    private static final WriterPlan PLAN = new WriterPlan(new byte[][] {new byte[0]}, new int[] {1},
            new ObjectWriter[][] {{Cbor.SHARED.writerFor(Object.class)}},
            new RecordEncoder[][] {{RecordEncoder.BY_RUNTIME_CLASS}}, null);

    private static final ClassValue<Dispatch> READERS = new ClassValue<>() {
        @Override
        protected Dispatch computeValue(Class<?> type) {
            CBORMapper mapper = Cbor.mapper(AllowList.reachableFrom(type));
            return new Dispatch(null, null, new Class<?>[] {type}, new ObjectReader[] {mapper.readerFor(type)},
                    new BytesMessage[1]);
        }
    };

    private ObjectMessages() {
    }

    public static long write(ExcerptAppender appender, Object value, TextHeaders headers) {
        if (value == null) {
            // it would read back as null, which readObject returns for "nothing to read yet"
            throw new IllegalArgumentException("writeObject needs an object, not null");
        }
        MessageEncoder encoder = new MessageEncoder(appender, PLAN, false, 0, headers, false);
        encoder.begin(0);
        encoder.argObject(value);
        encoder.end();
        return appender.lastIndexAppended();
    }

    public static <T> T read(ExcerptTailer tailer, Class<T> type) {
        try (ReadContext context = tailer.readingDocument()) {
            if (!context.isPresent()) {
                return null;
            }
            return decode(context, type);
        }
    }

    /**
     * The first argument of the message being read, as a {@code type}, leaving the cursor where it was: the
     * caller's context still decides whether the tailer moves on (commit) or stays (rollback).
     */
    public static <T> T decode(ReadContext context, Class<T> type) {
        Dispatch dispatch = READERS.get(type);
        MessageHeader header = new MessageHeader();
        ArgumentDecoder decoder = new ArgumentDecoder();
        long start = context.bytes().position();
        try {
            if (!header.read(context.bytes(), context.index(), null)) {
                throw new MessageDecodingException(context.index(), null,
                        "readObject found an excerpt that is not a message (raw bytes or text)", null);
            }
            if (header.argumentCount == 0) {
                throw new MessageDecodingException(context.index(), header.name(),
                        "readObject found a message without arguments, so without an object", null);
            }
            decoder.bind(context.bytes(), context.index(), header, dispatch);
            Object value = decoder.readDocument(0);
            if (value == null) {
                throw new MessageDecodingException(context.index(), header.name(),
                        "readObject found a message whose first argument is null", null);
            }
            return type.cast(value);
        } finally {
            context.bytes().position(start);
        }
    }
}
