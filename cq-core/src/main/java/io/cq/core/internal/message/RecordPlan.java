package io.cq.core.internal.message;

import java.lang.annotation.Annotation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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

    private RecordPlan(Class<?> type, byte[][] names, int[] kinds, EnumNames[] enums, MethodHandle constructor) {
        this.type = type;
        this.names = names;
        this.kinds = kinds;
        this.records = new RecordPlan[names.length];
        this.enums = enums;
        this.constructor = constructor;
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
        if (!type.isRecord() || type.getTypeParameters().length > 0 || hasJacksonAnnotations(type)) {
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
                if (enums[i].constants == null || hasJacksonAnnotationsInHierarchy(componentType)) {
                    return null;
                }
            }
        }
        MethodHandle constructor = constructor(type, types, kinds);
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

    private static int kindOf(Class<?> type) {
        if (type == boolean.class) {
            return BOOLEAN;
        } else if (type == byte.class) {
            return BYTE;
        } else if (type == short.class) {
            return SHORT;
        } else if (type == int.class) {
            return INT;
        } else if (type == long.class) {
            return LONG;
        } else if (type == float.class) {
            return FLOAT;
        } else if (type == double.class) {
            return DOUBLE;
        } else if (type == Boolean.class) {
            return REFERENCE | BOOLEAN;
        } else if (type == Byte.class) {
            return REFERENCE | BYTE;
        } else if (type == Short.class) {
            return REFERENCE | SHORT;
        } else if (type == Integer.class) {
            return REFERENCE | INT;
        } else if (type == Long.class) {
            return REFERENCE | LONG;
        } else if (type == Float.class) {
            return REFERENCE | FLOAT;
        } else if (type == Double.class) {
            return REFERENCE | DOUBLE;
        } else if (type == String.class) {
            return STRING;
        } else if (type.isEnum()) {
            return ENUM;
        } else if (type.isRecord()) {
            return RECORD;
        }
        return -1;
    }

    /**
     * Jackson reads annotations on all of these (and inherits them from interfaces, e.g. {@code @JsonTypeInfo} on
     * a sealed interface), and any of them may change the keys, the types or the way the record is created.
     */
    private static boolean hasJacksonAnnotations(Class<?> type) {
        if (annotated(type)) {
            return true;
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (hasJacksonAnnotationsInHierarchy(implemented)) {
                return true;
            }
        }
        for (RecordComponent component : type.getRecordComponents()) {
            if (annotated(component)) {
                return true;
            }
        }
        for (Field field : type.getDeclaredFields()) {
            if (annotated(field)) {
                return true;
            }
        }
        for (Method method : type.getDeclaredMethods()) {
            if (annotated(method) || anyAnnotated(method.getParameters())) {
                return true;
            }
        }
        for (Constructor<?> constructor : type.getDeclaredConstructors()) {
            if (annotated(constructor) || anyAnnotated(constructor.getParameters())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasJacksonAnnotationsInHierarchy(Class<?> type) {
        if (annotated(type)) {
            return true;
        }
        for (Method method : type.getDeclaredMethods()) {
            if (annotated(method)) {
                return true;
            }
        }
        for (Class<?> parent : type.getInterfaces()) {
            if (hasJacksonAnnotationsInHierarchy(parent)) {
                return true;
            }
        }
        return false;
    }

    private static boolean anyAnnotated(Parameter[] parameters) {
        for (Parameter parameter : parameters) {
            if (annotated(parameter)) {
                return true;
            }
        }
        return false;
    }

    private static boolean annotated(AnnotatedElement element) {
        for (Annotation annotation : element.getAnnotations()) {
            if (isJackson(annotation.annotationType())) {
                return true;
            }
        }
        return false;
    }

    /** Jackson's own annotations, bundles of them ({@code @JacksonAnnotationsInside}), and the java.beans ones. */
    private static boolean isJackson(Class<? extends Annotation> annotation) {
        String name = annotation.getName();
        if (name.startsWith("com.fasterxml.jackson.") || name.startsWith("tools.jackson.")
                || name.startsWith("java.beans.")) {
            return true;
        }
        for (Annotation meta : annotation.getAnnotations()) {
            if (meta.annotationType().getName().equals("com.fasterxml.jackson.annotation.JacksonAnnotationsInside")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The canonical constructor adapted to take its arguments from the decoder's arrays: references from
     * {@code Object[]} (cast), primitives from {@code long[]} (narrowed; floats and doubles as their bits).
     */
    private static MethodHandle constructor(Class<?> type, Class<?>[] types, int[] kinds) {
        MethodHandle canonical = canonicalConstructor(type, types);
        if (canonical == null) {
            return null;
        }
        MethodHandle reference = MethodHandles.arrayElementGetter(Object[].class);
        MethodHandle primitive = MethodHandles.arrayElementGetter(long[].class);
        MethodHandle[] filters = new MethodHandle[types.length];
        int[] reorder = new int[types.length];
        for (int i = 0; i < types.length; i++) {
            if ((kinds[i] & REFERENCE) != 0) {
                filters[i] = MethodHandles.insertArguments(reference, 1, i)
                        .asType(MethodType.methodType(types[i], Object[].class));
                reorder[i] = 0;
            } else {
                filters[i] = MethodHandles.filterReturnValue(MethodHandles.insertArguments(primitive, 1, i),
                        fromLong(kinds[i]));
                reorder[i] = 1;
            }
        }
        MethodHandle filtered = MethodHandles.filterArguments(canonical, 0, filters);
        return MethodHandles.permuteArguments(filtered,
                        MethodType.methodType(type, Object[].class, long[].class), reorder)
                .asType(MethodType.methodType(Object.class, Object[].class, long[].class));
    }

    /** {@code long -> the component's primitive}, as {@link RecordDecoder} stores it. */
    private static MethodHandle fromLong(int kind) {
        MethodHandle identity = MethodHandles.identity(long.class);
        try {
            return switch (kind) {
                case BOOLEAN -> MethodHandles.explicitCastArguments(identity,
                        MethodType.methodType(boolean.class, long.class)); // the low bit: 0 or 1
                case BYTE -> MethodHandles.explicitCastArguments(identity, MethodType.methodType(byte.class,
                        long.class));
                case SHORT -> MethodHandles.explicitCastArguments(identity, MethodType.methodType(short.class,
                        long.class));
                case INT -> MethodHandles.explicitCastArguments(identity, MethodType.methodType(int.class,
                        long.class));
                case FLOAT -> MethodHandles.explicitCastArguments(MethodHandles.lookup().findStatic(Float.class,
                        "intBitsToFloat", MethodType.methodType(float.class, int.class)),
                        MethodType.methodType(float.class, long.class));
                case DOUBLE -> MethodHandles.lookup().findStatic(Double.class, "longBitsToDouble",
                        MethodType.methodType(double.class, long.class));
                default -> identity;
            };
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Through a private lookup where the record's package is open to cq (any package on the class path), else
     * only a public constructor of a public record; null when neither may be called.
     */
    private static MethodHandle canonicalConstructor(Class<?> type, Class<?>[] types) {
        MethodType signature = MethodType.methodType(void.class, types);
        MethodHandles.Lookup lookup = privateLookup(type);
        try {
            if (lookup != null) {
                return lookup.findConstructor(type, signature);
            }
        } catch (IllegalAccessException | NoSuchMethodException | RuntimeException e) {
            // a public constructor may still be called
        }
        try {
            return MethodHandles.publicLookup().findConstructor(type, signature);
        } catch (IllegalAccessException | NoSuchMethodException | RuntimeException e) {
            return null;
        }
    }

    /**
     * A lookup with private access to {@code type}, where its package is open to cq (any package on the class path);
     * null where it is not.
     */
    static MethodHandles.Lookup privateLookup(Class<?> type) {
        try {
            Module cq = RecordPlan.class.getModule();
            if (cq.isNamed()) {
                cq.addReads(type.getModule());
            }
            return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    /**
     * An enum's constants as Jackson writes them (by default their {@code toString()}), checked once by reading
     * each back through Jackson: {@link #constants} is null unless every constant is written as a distinct text
     * string that Jackson reads back as that constant.
     */
    static final class EnumNames {
        final byte[][] names;
        final Object[] constants;

        private EnumNames(byte[][] names, Object[] constants) {
            this.names = names;
            this.constants = constants;
        }

        static EnumNames of(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            byte[][] names = new byte[constants.length][];
            try {
                for (int i = 0; i < constants.length; i++) {
                    byte[] written = Cbor.SHARED.writeValueAsBytes(constants[i]);
                    names[i] = RecordDecoder.definiteText(written);
                    if (names[i] == null || Cbor.SHARED.readerFor(type).readValue(written) != constants[i]) {
                        return new EnumNames(null, null);
                    }
                    for (int j = 0; j < i; j++) {
                        if (Arrays.equals(names[i], names[j])) {
                            return new EnumNames(null, null);
                        }
                    }
                }
            } catch (RuntimeException | LinkageError e) {
                return new EnumNames(null, null); // Jackson cannot write or read it plainly: leave it to Jackson
            }
            return new EnumNames(names, constants);
        }
    }
}
