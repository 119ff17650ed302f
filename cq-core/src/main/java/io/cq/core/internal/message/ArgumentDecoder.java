package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.message.BytesMessage;
import io.cq.core.message.MessageDecodingException;
import tools.jackson.databind.ObjectReader;

/**
 * What a generated invoker calls to get each argument, in parameter order, from a message excerpt. Tolerates
 * evolution of a method's signature: arguments the excerpt lacks read as zero, false or null; arguments the
 * handler lacks are never read; integers widen (an int written is read by a {@code long} parameter).
 *
 * <p>Every failure is a {@link MessageDecodingException} naming the excerpt, method and argument, and marks
 * the decoder {@link #failed()} so the reader can tell decoding failures from handler failures. Public only for
 * the generated classes.
 */
public final class ArgumentDecoder {
    private static final ObjectReader STRING_READER = Cbor.SHARED.readerFor(String.class);

    private ExcerptBytes bytes;
    private long index;
    private MessageHeader header;
    private Dispatch dispatch;
    private int available;
    private int argument;
    private boolean failed;
    private final DocumentDecoder documents = new DocumentDecoder();

    void bind(ExcerptBytes bytes, long index, MessageHeader header, Dispatch dispatch) {
        this.bytes = bytes;
        this.index = index;
        this.header = header;
        this.dispatch = dispatch;
        this.available = header.argumentCount;
        this.argument = 0;
        this.failed = false;
    }

    /** Where positional records' names are looked up beyond the JVM's own: the reader's queue. */
    void types(MessageTypes types) {
        documents.types(types);
    }

    boolean failed() {
        return failed;
    }

    /** The next argument's tag, or {@link MessageLayout#NULL} once the excerpt has no more arguments. */
    private byte next() {
        argument++;
        if (argument > available) {
            return MessageLayout.NULL;
        }
        try {
            return bytes.readByte();
        } catch (IndexOutOfBoundsException e) {
            throw failure("the excerpt ends before it", e);
        }
    }

    public boolean readBoolean() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.BOOLEAN -> bytes.readBoolean();
                case MessageLayout.NULL -> false;
                default -> throw mismatch(tag, "boolean");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public byte readByte() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.BYTE -> bytes.readByte();
                case MessageLayout.NULL -> 0;
                default -> throw mismatch(tag, "byte");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public short readShort() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.BYTE -> bytes.readByte();
                case MessageLayout.SHORT -> bytes.readShort();
                case MessageLayout.NULL -> 0;
                default -> throw mismatch(tag, "short");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public char readChar() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.CHAR -> bytes.readChar();
                case MessageLayout.NULL -> 0;
                default -> throw mismatch(tag, "char");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public int readInt() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.BYTE -> bytes.readByte();
                case MessageLayout.SHORT -> bytes.readShort();
                case MessageLayout.CHAR -> bytes.readChar();
                case MessageLayout.INT -> bytes.readInt();
                case MessageLayout.NULL -> 0;
                default -> throw mismatch(tag, "int");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public long readLong() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.LONG -> bytes.readLong();
                case MessageLayout.BYTE -> bytes.readByte();
                case MessageLayout.SHORT -> bytes.readShort();
                case MessageLayout.CHAR -> bytes.readChar();
                case MessageLayout.INT -> bytes.readInt();
                case MessageLayout.NULL -> 0;
                default -> throw mismatch(tag, "long");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public float readFloat() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.FLOAT -> bytes.readFloat();
                case MessageLayout.NULL -> 0;
                default -> throw mismatch(tag, "float");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public double readDouble() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.DOUBLE -> bytes.readDouble();
                case MessageLayout.FLOAT -> bytes.readFloat();
                case MessageLayout.INT -> bytes.readInt();
                case MessageLayout.LONG -> bytes.readLong();
                case MessageLayout.NULL -> 0;
                default -> throw mismatch(tag, "double");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    public String readText() {
        byte tag = next();
        try {
            return switch (tag) {
                case MessageLayout.TEXT -> bytes.readUtf8();
                case MessageLayout.NULL -> null;
                case MessageLayout.DOCUMENT, MessageLayout.COMPACT_DOCUMENT -> (String) document(tag, STRING_READER,
                        null);
                default -> throw mismatch(tag, "String");
            };
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
    }

    /** The slot's reused instance, filled from the excerpt; the bytes it does not read are skipped. */
    public BytesMessage readMessage(int slot) {
        byte tag = next();
        switch (tag) {
            case MessageLayout.NULL:
                return null;
            case MessageLayout.SELF_WRITTEN:
                break;
            default:
                throw mismatch(tag, dispatch.parameterTypes[slot].getName());
        }
        long outerLimit = bytes.readLimit();
        try {
            int length = bytes.readInt();
            long start = bytes.position();
            if (length < 0 || length > bytes.remaining()) {
                throw failure("a self-written message of " + length + " bytes does not fit in the " + bytes.remaining()
                        + " left", null);
            }
            BytesMessage message = dispatch.messages[slot];
            // readFrom sees the message's own end as the end: a newer reader can test remaining() for fields an
            // older writer did not write, and cannot read into the next argument.
            bytes.readLimit(start + length);
            try {
                message.readFrom(bytes);
            } finally {
                bytes.readLimit(outerLimit);
            }
            bytes.position(start + length);
            return message;
        } catch (MessageDecodingException e) {
            throw e;
        } catch (RuntimeException e) {
            // readFrom is decoding: whatever it throws will recur on every read, so the excerpt is not retried
            throw failure("the self-written message does not decode: " + e, e);
        }
    }

    public Object readDocument(int slot) {
        byte tag = next();
        Class<?> type = dispatch.parameterTypes[slot];
        Object value;
        try {
            value = readBoxed(tag, slot, type);
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            throw cutShort(e);
        }
        if (value != null && !type.isInstance(value)) {
            throw mismatch(tag, type.getName());
        }
        return value;
    }

    private Object readBoxed(byte tag, int slot, Class<?> type) {
        return switch (tag) {
            case MessageLayout.NULL -> null;
            case MessageLayout.DOCUMENT, MessageLayout.COMPACT_DOCUMENT, MessageLayout.RECORD ->
                    document(tag, dispatch.documentReaders[slot], dispatch.recordPlans[slot]);
            case MessageLayout.TEXT -> bytes.readUtf8();
            case MessageLayout.BOOLEAN -> bytes.readBoolean();
            case MessageLayout.BYTE -> bytes.readByte();
            case MessageLayout.SHORT -> bytes.readShort();
            case MessageLayout.CHAR -> bytes.readChar();
            case MessageLayout.INT -> bytes.readInt();
            case MessageLayout.LONG -> bytes.readLong();
            case MessageLayout.FLOAT -> bytes.readFloat();
            case MessageLayout.DOUBLE -> bytes.readDouble();
            default -> throw mismatch(tag, type.getName());
        };
    }

    /** The document or record at the cursor, after its tag; every failure is the excerpt's. */
    private Object document(byte tag, ObjectReader reader, RecordPlan plan) {
        try {
            return documents.read(bytes, tag, reader, plan);
        } catch (DocumentDecoder.Failure e) {
            throw failure(e.getMessage(), e.getCause());
        }
    }

    /** The cursor's own bounds or length checks failed: the excerpt is shorter than its tags say. */
    private MessageDecodingException cutShort(RuntimeException e) {
        return failure("the excerpt is cut short or malformed inside it (" + e.getMessage() + ")", e);
    }

    private MessageDecodingException mismatch(byte tag, String expected) {
        return failure("the excerpt holds " + describeTag(tag) + " where the handler takes " + expected, null);
    }

    private MessageDecodingException failure(String problem, Throwable cause) {
        failed = true;
        return new MessageDecodingException(index, header.name(), "argument " + (argument - 1) + ": " + problem, cause);
    }

    static String describeTag(byte tag) {
        return switch (tag) {
            case MessageLayout.BOOLEAN -> "a boolean";
            case MessageLayout.BYTE -> "a byte";
            case MessageLayout.SHORT -> "a short";
            case MessageLayout.CHAR -> "a char";
            case MessageLayout.INT -> "an int";
            case MessageLayout.LONG -> "a long";
            case MessageLayout.FLOAT -> "a float";
            case MessageLayout.DOUBLE -> "a double";
            case MessageLayout.TEXT -> "text";
            case MessageLayout.NULL -> "null";
            case MessageLayout.DOCUMENT, MessageLayout.COMPACT_DOCUMENT -> "a document";
            case MessageLayout.RECORD -> "a record";
            case MessageLayout.SELF_WRITTEN -> "a self-written message";
            default -> "an unknown tag 0x" + Integer.toHexString(tag & 0xFF);
        };
    }
}
