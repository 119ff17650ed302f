package io.cq.core.internal.message;

import io.cq.core.ExcerptBytes;
import tools.jackson.core.StreamReadConstraints;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads a record document straight from the excerpt, for the records that have a {@link RecordPlan}: the map
 * Jackson writes for a record (its components as keys, in any order), decoded into the component values and passed
 * to the canonical constructor, allocating only the record and what it holds (its strings, boxed values, nested
 * records). No parser, no deserialization context, no copy of the document.
 *
 * <p>It reads only what Jackson itself would read into exactly the same values: each component once, with the
 * CBOR type Jackson writes for it, and nothing else. Anything else (a key it does not know or a component missing,
 * as when writer and reader have different versions of the record, an integer out of range, a tag, a half-precision
 * float, text that is not valid UTF-8, a constructor that throws, a malformed document...) makes it return
 * {@link #NOT_DECODED}, and the caller hands the document to Jackson, whose result or error stands. One instance per
 * reader, confined to the reader's thread.
 */
final class RecordDecoder {
    /** What {@link #read} returns when the document is not one it decodes on its own. */
    static final Object NOT_DECODED = new Object();

    /** Jackson's limits, which its parser applies to the documents it reads, and cq's own nesting limit. */
    private static final StreamReadConstraints JACKSON_LIMITS = Cbor.SHARED.tokenStreamFactory()
            .streamReadConstraints();
    private static final int MAX_DEPTH = Math.min(CborLimits.MAX_NESTING_DEPTH,
            JACKSON_LIMITS.getMaxNestingDepth());
    private static final int MAX_TEXT_BYTES = JACKSON_LIMITS.getMaxStringLength();

    private ExcerptBytes bytes;
    /** Keys and text, copied out of the excerpt to be compared or decoded. */
    private byte[] text = new byte[64];
    /** Per nesting depth, the component values of the record being read at that depth. */
    private Object[][] references = new Object[2][];
    private long[][] primitives = new long[2][];
    /** Set by {@link #primitive} when the item is not one it reads. */
    private boolean invalid;

    /**
     * Decodes the document that fills the cursor up to its read limit as a {@code plan.type}, leaving the cursor
     * at the limit; or returns {@link #NOT_DECODED}, with the cursor anywhere in between.
     */
    Object read(ExcerptBytes cursor, RecordPlan plan) {
        bytes = cursor;
        try {
            Object value = record(plan, u8(), 0);
            return cursor.remaining() == 0 ? value : NOT_DECODED;
        } catch (IndexOutOfBoundsException e) {
            return NOT_DECODED; // a length or count that runs past the document: Jackson says what is wrong
        } finally {
            bytes = null;
        }
    }

    /**
     * As {@link #read}, for the values of a positional record ({@link MessageLayout#RECORD}) whose type is
     * {@code plan}'s (the same names in the same order): each component's value in turn, no keys.
     */
    Object readValues(ExcerptBytes cursor, RecordPlan plan) {
        bytes = cursor;
        int components = plan.components();
        Object[] refs = references(0, components);
        long[] values = primitives[0];
        try {
            for (int component = 0; component < components; component++) {
                if (!value(plan, component, refs, values, 0)) {
                    return NOT_DECODED;
                }
            }
            return cursor.remaining() == 0 ? construct(plan, refs, values) : NOT_DECODED;
        } catch (IndexOutOfBoundsException e) {
            return NOT_DECODED;
        } finally {
            Arrays.fill(refs, 0, components, null);
            bytes = null;
        }
    }

    /** The record whose first byte is {@code initial}: a value, null for CBOR null, or {@link #NOT_DECODED}. */
    private Object record(RecordPlan plan, int initial, int depth) {
        if (initial == Cbor.NULL && depth > 0) {
            return null;
        }
        boolean indefinite = initial == Cbor.INDEFINITE_MAP;
        int components = plan.components();
        if (!indefinite && (initial >>> 5 != Cbor.MAJOR_MAP || argument(initial) != components)) {
            return NOT_DECODED;
        }
        if (depth >= MAX_DEPTH) {
            return NOT_DECODED;
        }
        Object[] refs = references(depth, components);
        long[] values = primitives[depth];
        long seen = 0;
        int next = 0;
        try {
            for (int found = 0; ; found++) {
                int key;
                if (indefinite) {
                    key = u8();
                    if (key == Cbor.BREAK) {
                        if (found != components) {
                            return NOT_DECODED;
                        }
                        break;
                    }
                } else if (found == components) {
                    break;
                } else {
                    key = u8();
                }
                int component = component(plan, key, next);
                if (component < 0 || (seen & 1L << component) != 0) {
                    return NOT_DECODED;
                }
                seen |= 1L << component;
                next = component + 1;
                if (!value(plan, component, refs, values, depth)) {
                    return NOT_DECODED;
                }
            }
            return construct(plan, refs, values);
        } finally {
            Arrays.fill(refs, 0, components, null);
        }
    }

    private static Object construct(RecordPlan plan, Object[] refs, long[] values) {
        try {
            return (Object) plan.constructor.invokeExact(refs, values);
        } catch (RuntimeException e) {
            // A constructor that refuses a value: Jackson calls it again and reports the failure its own way.
            return NOT_DECODED;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            return NOT_DECODED;
        }
    }

    /** The component whose name is the key starting with {@code initial}, trying {@code expected} first; or -1. */
    private int component(RecordPlan plan, int initial, int expected) {
        int length = textLength(initial);
        if (length < 0) {
            return -1;
        }
        byte[][] names = plan.names;
        if (expected < names.length && Arrays.equals(text, 0, length, names[expected], 0, names[expected].length)) {
            return expected;
        }
        for (int i = 0; i < names.length; i++) {
            if (Arrays.equals(text, 0, length, names[i], 0, names[i].length)) {
                return i;
            }
        }
        return -1;
    }

    private boolean value(RecordPlan plan, int component, Object[] refs, long[] values, int depth) {
        int kind = plan.kinds[component];
        int initial = u8();
        switch (kind) {
            case RecordPlan.STRING -> {
                if (initial == Cbor.NULL) {
                    return true;
                }
                String value = string(initial);
                refs[component] = value;
                return value != null;
            }
            case RecordPlan.ENUM -> {
                if (initial == Cbor.NULL) {
                    return true;
                }
                Object constant = constant(plan.enums[component], initial);
                refs[component] = constant;
                return constant != null;
            }
            case RecordPlan.RECORD -> {
                Object value = record(plan.records[component], initial, depth + 1);
                refs[component] = value;
                return value != NOT_DECODED;
            }
            default -> {
                invalid = false;
                if ((kind & RecordPlan.REFERENCE) != 0) {
                    if (initial == Cbor.NULL) {
                        return true;
                    }
                    int primitive = kind & ~RecordPlan.REFERENCE;
                    long value = primitive(primitive, initial);
                    refs[component] = invalid ? null : box(primitive, value);
                } else {
                    values[component] = primitive(kind, initial);
                }
                return !invalid;
            }
        }
    }

    /**
     * A primitive as it is kept until the constructor is called: booleans as 0 or 1, floats and doubles as their
     * bits. Sets {@link #invalid} when the item is not one that Jackson would read into the same value.
     */
    private long primitive(int kind, int initial) {
        switch (kind) {
            case RecordPlan.BOOLEAN:
                if (initial == Cbor.TRUE || initial == Cbor.FALSE) {
                    return initial == Cbor.TRUE ? 1 : 0;
                }
                break;
            case RecordPlan.FLOAT:
                if (initial == Cbor.FLOAT32) {
                    return Integer.reverseBytes(bytes.readInt());
                }
                break;
            case RecordPlan.DOUBLE:
                if (initial == Cbor.FLOAT64) {
                    return Long.reverseBytes(bytes.readLong());
                }
                if (initial == Cbor.FLOAT32) {
                    return Double.doubleToRawLongBits(Float.intBitsToFloat(Integer.reverseBytes(bytes.readInt())));
                }
                break;
            default:
                return integer(kind, initial);
        }
        invalid = true;
        return 0;
    }

    /** An integer within the component's range; anything else sets {@link #invalid}. */
    private long integer(int kind, int initial) {
        int major = initial >>> 5;
        long argument = major == Cbor.MAJOR_UNSIGNED || major == Cbor.MAJOR_NEGATIVE ? argument(initial) : -1;
        if (argument < 0) {
            invalid = true; // not an integer, or beyond a long
            return 0;
        }
        long value = major == Cbor.MAJOR_UNSIGNED ? argument : -1 - argument;
        boolean inRange = switch (kind) {
            case RecordPlan.BYTE -> value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE;
            case RecordPlan.SHORT -> value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
            case RecordPlan.INT -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
            default -> true;
        };
        // Jackson has its own rules out of range (a byte takes 128..255, say): it decides.
        invalid = !inRange;
        return value;
    }

    private static Object box(int kind, long value) {
        return switch (kind) {
            case RecordPlan.BOOLEAN -> value != 0;
            case RecordPlan.BYTE -> (byte) value;
            case RecordPlan.SHORT -> (short) value;
            case RecordPlan.INT -> (int) value;
            case RecordPlan.FLOAT -> Float.intBitsToFloat((int) value);
            case RecordPlan.DOUBLE -> Double.longBitsToDouble(value);
            default -> value;
        };
    }

    /** Text of definite length, valid UTF-8, as a String; null for anything else. */
    private String string(int initial) {
        int length = textLength(initial);
        if (length < 0) {
            return null;
        }
        byte[] t = text;
        for (int i = 0; i < length; i++) {
            if (t[i] < 0) {
                return CborText.isValidUtf8(t, length) ? new String(t, 0, length, StandardCharsets.UTF_8) : null;
            }
        }
        return new String(t, 0, length, StandardCharsets.ISO_8859_1); // ASCII: the bytes are the chars
    }

    private Object constant(EnumNames names, int initial) {
        int length = textLength(initial);
        if (length < 0) {
            return null;
        }
        byte[][] known = names.names;
        for (int i = 0; i < known.length; i++) {
            if (Arrays.equals(text, 0, length, known[i], 0, known[i].length)) {
                return names.constants[i];
            }
        }
        return null;
    }

    /** Copies the definite-length text starting with {@code initial} into {@link #text}; its length, or -1. */
    private int textLength(int initial) {
        if (initial >>> 5 != Cbor.MAJOR_TEXT) {
            return -1;
        }
        long length = argument(initial);
        if (length < 0 || length > bytes.remaining() || length > MAX_TEXT_BYTES) {
            return -1;
        }
        int n = (int) length;
        if (text.length < n) {
            text = new byte[Math.max(n, text.length * 2)];
        }
        bytes.readBytes(text, 0, n);
        return n;
    }

    /** The argument of an item (a length, a count, an integer's magnitude); -1 when indefinite or beyond a long. */
    private long argument(int initial) {
        int info = initial & 31;
        return switch (info) {
            case 24 -> u8();
            case 25 -> Short.reverseBytes(bytes.readShort()) & 0xFFFFL;
            case 26 -> Integer.reverseBytes(bytes.readInt()) & 0xFFFF_FFFFL;
            case 27 -> {
                long value = Long.reverseBytes(bytes.readLong());
                yield value < 0 ? -1 : value;
            }
            default -> info < 24 ? info : -1;
        };
    }

    private int u8() {
        return bytes.readByte() & 0xFF;
    }

    /** The reused arrays of the given depth, at least {@code size} long; {@link #primitives} has the same. */
    private Object[] references(int depth, int size) {
        if (depth >= references.length) {
            references = Arrays.copyOf(references, Math.max(depth + 1, references.length * 2));
            primitives = Arrays.copyOf(primitives, references.length);
        }
        Object[] refs = references[depth];
        if (refs == null || refs.length < size) {
            refs = references[depth] = new Object[size];
            primitives[depth] = new long[size];
        }
        return refs;
    }
}
