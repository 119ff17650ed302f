package io.cq.core.internal.message;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Writes a record document without Jackson, byte for byte what Jackson writes for it: an indefinite-length CBOR map
 * of the components in declaration order, each key a definite-length text, integers in their shortest form, floats
 * and doubles in full width with their exact bits, text with a definite length, enums as the text Jackson writes for
 * the constant, nested records as nested maps, null as null. It allocates nothing; Jackson's serialization context
 * and boxed components cost about 128 bytes a message.
 *
 * <p>It writes the records {@link RecordPlan} reads without Jackson, less those Jackson would write with more keys
 * than the components: a public {@code get...} or {@code is...} method that is not a component's accessor is a
 * property to Jackson. A value it cannot write the way Jackson does (text longer than Jackson writes in one piece,
 * text with an unpaired surrogate or records nested deeper than Jackson writes, both of which Jackson refuses, an
 * accessor that throws) makes {@link #write} return false, and the caller hands the record to Jackson, whose
 * document or error stands. {@code RecordEncoderTest} holds the two to each other.
 *
 * <p>An instance is a plan, shared by every writer; the bytes go into the caller's buffer.
 */
final class RecordEncoder {
    /** Stands for "the argument's own class, looked up per call": a parameter declared as {@code Object}. */
    static final RecordEncoder BY_RUNTIME_CLASS = new RecordEncoder(null, null, null, null);

    /**
     * Jackson writes longer text in chunks (an indefinite-length string); such text goes to Jackson. It is
     * CBORGenerator's limit for one piece, found by comparing documents, and checked by RecordEncoderTest.
     */
    static final int MAX_TEXT_CHARS = 3996;
    /** Jackson refuses to write records nested deeper (500 by default); such records go to Jackson, which says so. */
    private static final int MAX_DEPTH = Cbor.SHARED.tokenStreamFactory().streamWriteConstraints()
            .getMaxNestingDepth();

    private static final ClassValue<Holder> ENCODERS = new ClassValue<>() {
        @Override
        protected Holder computeValue(Class<?> type) {
            try {
                RecordPlan plan = RecordPlan.of(type);
                return new Holder(plan == null ? null : build(plan, new HashMap<>()));
            } catch (RuntimeException | LinkageError e) {
                return new Holder(null); // Jackson meets whatever failed here, and reports it
            }
        }
    };

    private final RecordPlan plan;
    /** Per component: its key as Jackson writes it, the CBOR text header included. */
    private final byte[][] keys;
    /**
     * Per component, its accessor adapted to {@code (Object) -> long} for primitives (booleans as 0 or 1, floats and
     * doubles as their raw bits) and to {@code (Object) -> Object} for the rest.
     */
    private final MethodHandle[] accessors;
    /** Per component: the encoder of a record component, else null; filled after construction (records may nest). */
    private final RecordEncoder[] records;

    private RecordEncoder(RecordPlan plan, byte[][] keys, MethodHandle[] accessors, RecordEncoder[] records) {
        this.plan = plan;
        this.keys = keys;
        this.accessors = accessors;
        this.records = records;
    }

    /** The encoder of {@code type}, or null when its documents are written by Jackson only. */
    static RecordEncoder of(Class<?> type) {
        return ENCODERS.get(type).encoder;
    }

    /** Holder, since ClassValue cannot hold null. */
    private record Holder(RecordEncoder encoder) {
    }

    /** {@code building}: the encoders of this build so far, so that a record that contains itself is built once. */
    private static RecordEncoder build(RecordPlan plan, Map<Class<?>, RecordEncoder> building) {
        if (building.containsKey(plan.type)) {
            return building.get(plan.type);
        }
        if (hasOtherGetters(plan.type)) {
            return null;
        }
        RecordComponent[] components = plan.type.getRecordComponents();
        MethodHandles.Lookup lookup = lookup(plan.type);
        if (lookup == null) {
            return null;
        }
        byte[][] keys = new byte[components.length][];
        MethodHandle[] accessors = new MethodHandle[components.length];
        for (int i = 0; i < components.length; i++) {
            GrowableOutput key = new GrowableOutput();
            header(key, Cbor.MAJOR_TEXT, plan.names[i].length);
            key.write(plan.names[i], 0, plan.names[i].length);
            keys[i] = Arrays.copyOf(key.buffer(), key.count());
            try {
                accessors[i] = adapt(lookup.unreflect(components[i].getAccessor()), plan.kinds[i]);
            } catch (IllegalAccessException e) {
                return null;
            }
        }
        RecordEncoder encoder = new RecordEncoder(plan, keys, accessors, new RecordEncoder[components.length]);
        building.put(plan.type, encoder);
        for (int i = 0; i < components.length; i++) {
            if (plan.records[i] != null) {
                // one that fails fails the whole build, so an unfinished encoder reached here is never used
                encoder.records[i] = build(plan.records[i], building);
                if (encoder.records[i] == null) {
                    return null;
                }
            }
        }
        return encoder;
    }

    /**
     * Whether Jackson would find a property besides the components: a public instance method without parameters
     * that returns something and is named like a getter ({@code getX}, {@code isX}), other than an accessor.
     */
    private static boolean hasOtherGetters(Class<?> type) {
        Set<String> accessors = new HashSet<>();
        for (RecordComponent component : type.getRecordComponents()) {
            accessors.add(component.getName());
        }
        for (Method method : type.getMethods()) {
            String name = method.getName();
            if (Modifier.isStatic(method.getModifiers()) || method.getParameterCount() != 0
                    || method.getReturnType() == void.class || accessors.contains(name) || name.equals("getClass")) {
                continue;
            }
            if ((name.startsWith("get") && name.length() > 3) || (name.startsWith("is") && name.length() > 2)) {
                return true;
            }
        }
        return false;
    }

    /** As {@link RecordPlan} reaches the constructor: privately where the package is open to cq, else public only. */
    private static MethodHandles.Lookup lookup(Class<?> type) {
        MethodHandles.Lookup lookup = RecordConstructors.privateLookup(type);
        if (lookup != null) {
            return lookup;
        }
        return Modifier.isPublic(type.getModifiers()) ? MethodHandles.publicLookup() : null;
    }

    private static MethodHandle adapt(MethodHandle accessor, int kind) throws IllegalAccessException {
        if ((kind & RecordPlan.REFERENCE) != 0) {
            return accessor.asType(MethodType.methodType(Object.class, Object.class));
        }
        MethodHandle raw = accessor;
        try {
            if (kind == RecordPlan.FLOAT) {
                raw = MethodHandles.filterReturnValue(accessor, MethodHandles.lookup().findStatic(Float.class,
                        "floatToRawIntBits", MethodType.methodType(int.class, float.class)));
            } else if (kind == RecordPlan.DOUBLE) {
                raw = MethodHandles.filterReturnValue(accessor, MethodHandles.lookup().findStatic(Double.class,
                        "doubleToRawLongBits", MethodType.methodType(long.class, double.class)));
            }
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
        // boolean to 1 or 0; byte, short and int sign-extended
        return MethodHandles.explicitCastArguments(raw, MethodType.methodType(long.class, Object.class));
    }

    /**
     * Appends the document of {@code record} (an instance of this encoder's record) to {@code out}; false, with
     * {@code out} holding a partial document, when a value must go through Jackson. An accessor that throws also
     * leaves the record to Jackson, which calls it again and reports the failure as it always has.
     */
    boolean write(Object record, GrowableOutput out) {
        return write(record, out, 1, true);
    }

    /**
     * As {@link #write(Object, GrowableOutput)}, without the map around the values and their keys: the component
     * values in order, each the CBOR item it is in the document (nested records with their keys), as a positional
     * record message holds them ({@link MessageTypes}).
     */
    boolean writeValues(Object record, GrowableOutput out) {
        return write(record, out, 1, false);
    }

    RecordPlan plan() {
        return plan;
    }

    private boolean write(Object record, GrowableOutput out, int depth, boolean keyed) {
        if (keyed) {
            out.write(Cbor.INDEFINITE_MAP);
        }
        final int[] kinds = plan.kinds;
        for (int i = 0; i < kinds.length; i++) {
            if (keyed) {
                out.write(keys[i], 0, keys[i].length);
            }
            int kind = kinds[i];
            try {
                if ((kind & RecordPlan.REFERENCE) == 0) {
                    primitive(out, kind, (long) accessors[i].invokeExact(record));
                } else if (!reference(out, i, kind, (Object) accessors[i].invokeExact(record), depth)) {
                    return false;
                }
            } catch (RuntimeException e) {
                return false;
            } catch (Error e) {
                throw e;
            } catch (Throwable e) {
                return false; // a checked exception, thrown sneakily: Jackson's to report
            }
        }
        if (keyed) {
            out.write(Cbor.BREAK);
        }
        return true;
    }

    private boolean reference(GrowableOutput out, int component, int kind, Object value, int depth) {
        if (value == null) {
            out.write(Cbor.NULL);
            return true;
        }
        switch (kind) {
            case RecordPlan.STRING:
                return text(out, (String) value);
            case RecordPlan.ENUM:
                byte[] name = plan.enums[component].names[((Enum<?>) value).ordinal()];
                header(out, Cbor.MAJOR_TEXT, name.length);
                out.write(name, 0, name.length);
                return true;
            case RecordPlan.RECORD:
                return depth < MAX_DEPTH && records[component].write(value, out, depth + 1, true);
            case RecordPlan.REFERENCE | RecordPlan.BOOLEAN:
                primitive(out, RecordPlan.BOOLEAN, (Boolean) value ? 1 : 0);
                return true;
            case RecordPlan.REFERENCE | RecordPlan.FLOAT:
                primitive(out, RecordPlan.FLOAT, Float.floatToRawIntBits((Float) value));
                return true;
            case RecordPlan.REFERENCE | RecordPlan.DOUBLE:
                primitive(out, RecordPlan.DOUBLE, Double.doubleToRawLongBits((Double) value));
                return true;
            default:
                primitive(out, RecordPlan.LONG, ((Number) value).longValue()); // Byte, Short, Integer, Long
                return true;
        }
    }

    private static void primitive(GrowableOutput out, int kind, long value) {
        switch (kind) {
            case RecordPlan.BOOLEAN -> out.write(value != 0 ? Cbor.TRUE : Cbor.FALSE);
            case RecordPlan.FLOAT -> {
                out.write(Cbor.FLOAT32);
                bigEndian(out, value, Integer.BYTES);
            }
            case RecordPlan.DOUBLE -> {
                out.write(Cbor.FLOAT64);
                bigEndian(out, value, Long.BYTES);
            }
            default -> {
                if (value >= 0) {
                    header(out, Cbor.MAJOR_UNSIGNED, value);
                } else {
                    header(out, Cbor.MAJOR_NEGATIVE, ~value); // -1 - value
                }
            }
        }
    }

    /**
     * UTF-8 with a definite length, as Jackson writes text up to {@link #MAX_TEXT_CHARS}; false otherwise. Encoded
     * here rather than by the engine's {@code Utf8}: the message layer uses the engine through its API only, and
     * that one writes a lone surrogate as U+FFFD where Jackson refuses it.
     */
    private static boolean text(GrowableOutput out, String value) {
        int chars = value.length();
        if (chars > MAX_TEXT_CHARS) {
            return false;
        }
        int bytes = 0;
        for (int i = 0; i < chars; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (!Character.isSurrogate(c)) {
                bytes += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < chars && Character.isLowSurrogate(value.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                return false;
            }
        }
        header(out, Cbor.MAJOR_TEXT, bytes);
        out.ensure(bytes);
        byte[] buffer = out.buffer();
        int at = out.count();
        for (int i = 0; i < chars; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                buffer[at++] = (byte) c;
            } else if (c < 0x800) {
                buffer[at++] = (byte) (0xC0 | c >> 6);
                buffer[at++] = (byte) (0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                buffer[at++] = (byte) (0xE0 | c >> 12);
                buffer[at++] = (byte) (0x80 | c >> 6 & 0x3F);
                buffer[at++] = (byte) (0x80 | c & 0x3F);
            } else {
                int point = Character.toCodePoint(c, value.charAt(++i));
                buffer[at++] = (byte) (0xF0 | point >> 18);
                buffer[at++] = (byte) (0x80 | point >> 12 & 0x3F);
                buffer[at++] = (byte) (0x80 | point >> 6 & 0x3F);
                buffer[at++] = (byte) (0x80 | point & 0x3F);
            }
        }
        out.advance(bytes);
        return true;
    }

    /** A CBOR head: the major type and the argument in its shortest form (RFC 8949, 3.1). */
    private static void header(GrowableOutput out, int majorType, long argument) {
        int major = majorType << 5;
        if (argument < 24) {
            out.write(major | (int) argument);
        } else if (argument <= 0xFF) {
            out.write(major | 24);
            out.write((int) argument);
        } else if (argument <= 0xFFFF) {
            out.write(major | 25);
            bigEndian(out, argument, Short.BYTES);
        } else if (argument <= 0xFFFF_FFFFL) {
            out.write(major | 26);
            bigEndian(out, argument, Integer.BYTES);
        } else {
            out.write(major | 27);
            bigEndian(out, argument, Long.BYTES); // an unsigned 64-bit argument: ~Long.MIN_VALUE at most here
        }
    }

    private static void bigEndian(GrowableOutput out, long value, int bytes) {
        out.ensure(bytes);
        byte[] buffer = out.buffer();
        int at = out.count();
        for (int shift = (bytes - 1) * Byte.SIZE; shift >= 0; shift -= Byte.SIZE) {
            buffer[at++] = (byte) (value >>> shift);
        }
        out.advance(bytes);
    }
}
