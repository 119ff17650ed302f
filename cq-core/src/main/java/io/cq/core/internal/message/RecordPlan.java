package io.cq.core.internal.message;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * How {@link RecordDecoder} reads a record document without Jackson: per component, its name as the UTF-8 bytes
 * Jackson writes as the key, what it holds, and a handle on the canonical constructor. Computed once per record
 * class; null ({@link #of(Class)}) for a type Jackson might read in any other way than "the map of its components,
 * passed to the canonical constructor", which then always goes through Jackson:
 *
 * <ul>
 *   <li>not a record, a generic record, or more than 64 components;</li>
 *   <li>a Jackson annotation (or {@code java.beans} one, which Jackson also reads) on the record, its
 *       interfaces, components, fields, methods or constructors;</li>
 *   <li>a component that is not a primitive (char excepted), a boxed one, a {@code String}, an enum whose
 *       constants Jackson writes as distinct text and reads back, or a record that qualifies itself;</li>
 *   <li>a canonical constructor cq cannot call (a module that does not open the record's package to cq, and a
 *       constructor that is not public).</li>
 * </ul>
 */
final class RecordPlan {
    static final int BOOLEAN = 0;
    static final int BYTE = 1;
    static final int SHORT = 2;
    static final int INT = 3;
    static final int LONG = 4;
    static final int FLOAT = 5;
    static final int DOUBLE = 6;
    /** Kinds from here on are held as references; boxed kinds are the primitive kind plus this. */
    static final int REFERENCE = 8;
    static final int STRING = REFERENCE | 16;
    static final int ENUM = REFERENCE | 17;
    static final int RECORD = REFERENCE | 18;

    static final int MAX_COMPONENTS = Long.SIZE;
    /** Jackson refuses longer keys (in characters, which are at most as many as the bytes). */
    private static final int MAX_NAME_BYTES = Cbor.SHARED.tokenStreamFactory().streamReadConstraints()
            .getMaxNameLength();

    private static final ClassValue<Eligibility> PLANS = new ClassValue<>() {
        @Override
        protected Eligibility computeValue(Class<?> type) {
            try {
                return new Eligibility(build(type, new HashMap<>()));
            } catch (RuntimeException | LinkageError e) {
                // an annotation or enum that cannot be loaded or initialised: Jackson meets it and reports it
                return new Eligibility(null);
            }
        }
    };

    private static final ClassValue<EnumNames> ENUMS = new ClassValue<>() {
        @Override
        protected EnumNames computeValue(Class<?> type) {
            return EnumNames.of(type);
        }
    };

    final Class<?> type;
    final byte[][] names;
    final int[] kinds;
    /** Per component: the plan of a record component, else null; filled after construction (records may nest). */
    final RecordPlan[] records;
    final EnumNames[] enums;
    /** {@code (Object[] references, long[] primitives) -> Object}: the canonical constructor. */
    final MethodHandle constructor;
    /** The id of its names in a positional record message ({@link MessageTypes}). */
    final long typeId;

    private RecordPlan(Class<?> type, byte[][] names, int[] kinds, EnumNames[] enums, MethodHandle constructor) {
        this.type = type;
        this.names = names;
        this.kinds = kinds;
        this.records = new RecordPlan[names.length];
        this.enums = enums;
        this.constructor = constructor;
        this.typeId = typeId(names);
    }

    /**
     * 64-bit FNV-1a of the count and each name with its length: the same names in the same order give the same id
     * in every process, with no registry to ask; different names collide with a chance of about 2^-64.
     */
    static long typeId(byte[][] names) {
        long hash = 0xCBF29CE484222325L;
        hash = (hash ^ names.length) * 0x100000001B3L;
        for (byte[] name : names) {
            hash = (hash ^ name.length) * 0x100000001B3L;
            for (byte b : name) {
                hash = (hash ^ (b & 0xFF)) * 0x100000001B3L;
            }
        }
        return hash;
    }

    /** The plan of {@code type}, or null when it is read through Jackson only. */
    static RecordPlan of(Class<?> type) {
        return PLANS.get(type).plan;
    }

    int components() {
        return names.length;
    }

    /** Holder, since ClassValue cannot hold null. */
    private record Eligibility(RecordPlan plan) {
    }

    private static RecordPlan build(Class<?> type, Map<Class<?>, RecordPlan> building) {
        RecordPlan done = building.get(type);
        if (done != null || building.containsKey(type)) {
            return done; // a record that contains itself: the plan being built, or null if it did not qualify
        }
        if (!type.isRecord() || type.getTypeParameters().length > 0 || JacksonAnnotations.onRecord(type)) {
            return null;
        }
        RecordComponent[] components = type.getRecordComponents();
        if (components.length > MAX_COMPONENTS) {
            return null;
        }
        byte[][] names = new byte[components.length][];
        int[] kinds = new int[components.length];
        EnumNames[] enums = new EnumNames[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            RecordComponent component = components[i];
            if (!(component.getGenericType() instanceof Class<?> componentType)) {
                return null; // List<String>, T...: Jackson's
            }
            types[i] = componentType;
            names[i] = component.getName().getBytes(StandardCharsets.UTF_8);
            kinds[i] = kindOf(componentType);
            if (kinds[i] < 0 || names[i].length > MAX_NAME_BYTES) {
                return null;
            }
            if (kinds[i] == ENUM) {
                // an annotated enum type (@JsonIgnoreType, say, on it or an interface) changes its property
                enums[i] = ENUMS.get(componentType);
                if (enums[i].constants == null || JacksonAnnotations.inHierarchy(componentType)) {
                    return null;
                }
            }
        }
        MethodHandle constructor = RecordConstructors.fromArrays(type, types, kinds);
        if (constructor == null) {
            return null;
        }
        RecordPlan plan = new RecordPlan(type, names, kinds, enums, constructor);
        building.put(type, plan);
        for (int i = 0; i < components.length; i++) {
            if (kinds[i] == RECORD) {
                plan.records[i] = types[i] == type ? plan : build(types[i], building);
                if (plan.records[i] == null) {
                    building.put(type, null);
                    return null;
                }
            }
        }
        return plan;
    }

    /** Its kind, or -1 for a component Jackson must read. */
    private static int kindOf(Class<?> type) {
        Class<?> unboxed = MethodType.methodType(type).unwrap().returnType();
        int primitive = switch (ArgumentKind.ofPrimitive(unboxed)) {
            case BOOLEAN -> BOOLEAN;
            case BYTE -> BYTE;
            case SHORT -> SHORT;
            case INT -> INT;
            case LONG -> LONG;
            case FLOAT -> FLOAT;
            case DOUBLE -> DOUBLE;
            case null, default -> -1; // not a primitive, or a char (Jackson writes it as text)
        };
        if (primitive >= 0) {
            return type.isPrimitive() ? primitive : REFERENCE | primitive;
        } else if (type == String.class) {
            return STRING;
        } else if (type.isEnum()) {
            return ENUM;
        } else if (type.isRecord()) {
            return RECORD;
        }
        return -1;
    }
}
