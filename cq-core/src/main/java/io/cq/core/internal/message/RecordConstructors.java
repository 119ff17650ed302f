package io.cq.core.internal.message;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static io.cq.core.internal.message.RecordPlan.BOOLEAN;
import static io.cq.core.internal.message.RecordPlan.BYTE;
import static io.cq.core.internal.message.RecordPlan.DOUBLE;
import static io.cq.core.internal.message.RecordPlan.FLOAT;
import static io.cq.core.internal.message.RecordPlan.INT;
import static io.cq.core.internal.message.RecordPlan.REFERENCE;
import static io.cq.core.internal.message.RecordPlan.SHORT;

/** A record's canonical constructor as {@link RecordDecoder} calls it, and the lookups that may reach it. */
final class RecordConstructors {
    private RecordConstructors() {
    }

    /**
     * The canonical constructor adapted to take its arguments from the decoder's arrays: references from
     * {@code Object[]} (cast), primitives from {@code long[]} (narrowed; floats and doubles as their bits).
     */
    static MethodHandle fromArrays(Class<?> type, Class<?>[] types, int[] kinds) {
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
            Module cq = RecordConstructors.class.getModule();
            if (cq.isNamed()) {
                cq.addReads(type.getModule());
            }
            return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }
}
