package io.cq.core.internal.message;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import tools.jackson.databind.ObjectWriter;

import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Everything a method writer of one interface needs, computed once per interface: per method (in the order of
 * {@link #messageMethods(Class)}) its name as UTF-8, its argument count, a Jackson writer per document parameter
 * and, where a document parameter is a record written without Jackson, its {@link RecordEncoder}; and the
 * constructor of the generated implementation ({@link WriterClassGenerator}).
 */
record WriterPlan(byte[][] names, int[] argumentCounts, ObjectWriter[][] documentWriters,
                  RecordEncoder[][] recordEncoders, MethodHandle constructor) {

    private static final ClassValue<WriterPlan> PLANS = new ClassValue<>() {
        @Override
        protected WriterPlan computeValue(Class<?> type) {
            return of(type);
        }
    };

    static WriterPlan forInterface(Class<?> type) {
        return PLANS.get(type);
    }

    private static WriterPlan of(Class<?> type) {
        if (!type.isInterface()) {
            throw new IllegalArgumentException("a method writer implements an interface; " + type.getName()
                    + " is a class");
        }
        Method[] methods = messageMethods(type);
        byte[][] names = new byte[methods.length][];
        int[] argumentCounts = new int[methods.length];
        ObjectWriter[][] writers = new ObjectWriter[methods.length][];
        RecordEncoder[][] encoders = new RecordEncoder[methods.length][];
        for (int i = 0; i < methods.length; i++) {
            Method method = methods[i];
            Class<?> returned = method.getReturnType();
            if (returned != void.class && !returned.isAssignableFrom(type)) {
                throw new IllegalArgumentException(describe(method) + " returns " + returned.getName()
                        + ": a method writer's methods return void or the interface itself (for chaining)");
            }
            names[i] = method.getName().getBytes(StandardCharsets.UTF_8);
            if (names[i].length > MessageLayout.MAX_NAME_BYTES) {
                throw new IllegalArgumentException(describe(method) + ": a message name has at most "
                        + MessageLayout.MAX_NAME_BYTES + " UTF-8 bytes");
            }
            argumentCounts[i] = method.getParameterCount();
            writers[i] = new ObjectWriter[method.getParameterCount()];
            encoders[i] = new RecordEncoder[method.getParameterCount()];
            for (int p = 0; p < method.getParameterCount(); p++) {
                Class<?> declared = method.getParameterTypes()[p];
                if (ArgumentKind.of(declared) == ArgumentKind.DOCUMENT) {
                    writers[i][p] = documentWriter(method, p);
                    encoders[i][p] = declared == Object.class ? RecordEncoder.BY_RUNTIME_CLASS
                            : RecordEncoder.of(declared);
                }
            }
        }
        MethodHandle constructor = WriterClassGenerator.generate(type, methods);
        return new WriterPlan(names, argumentCounts, writers, encoders, constructor);
    }

    /**
     * The writer of a document parameter. A final type (records, enums, final classes) and a type that names its
     * subtypes in the data ({@code @JsonTypeInfo}) are written as declared; any other type is written as the
     * argument's own class, so that a subclass's fields are not dropped silently (a reader still decodes into its
     * parameter's type and ignores what it does not know). An interface or abstract class of the application
     * without {@code @JsonTypeInfo} is refused: no reader could decode it.
     */
    private static ObjectWriter documentWriter(Method method, int slot) {
        Class<?> declared = method.getParameterTypes()[slot];
        boolean typed = declared.isAnnotationPresent(JsonTypeInfo.class);
        boolean platform = declared.isPrimitive() || declared.getName().startsWith("java.");
        if (!platform && !typed && (declared.isInterface() || Modifier.isAbstract(declared.getModifiers()))
                && !declared.isArray()) {
            throw new IllegalArgumentException(describe(method) + ": parameter " + slot + " is of type "
                    + declared.getName()
                    + ", an interface or abstract class without @JsonTypeInfo, which no reader could decode; declare a "
                    + "concrete type, or annotate it with @JsonTypeInfo(use = JsonTypeInfo.Id.NAME) and @JsonSubTypes");
        }
        if (typed || declared.isArray() || declared.isPrimitive() || Modifier.isFinal(declared.getModifiers())) {
            return Cbor.SHARED.writerFor(Cbor.SHARED.constructType(method.getGenericParameterTypes()[slot]));
        }
        return Cbor.SHARED.writer();
    }

    /** The abstract methods of an interface (inherited ones included), sorted by name; overloads are refused. */
    static Method[] messageMethods(Class<?> type) {
        List<Method> methods = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Method[] all = type.getMethods();
        Arrays.sort(all, Comparator.comparing(Method::getName).thenComparing(Method::toGenericString));
        for (Method method : all) {
            if (Modifier.isStatic(method.getModifiers()) || !Modifier.isAbstract(method.getModifiers())
                    || redeclaresObjectMethod(method)) {
                continue;
            }
            if (!names.add(method.getName())) {
                Method earlier = methods.stream().filter(m -> m.getName().equals(method.getName())).findFirst()
                        .orElseThrow();
                if (Arrays.equals(earlier.getParameterTypes(), method.getParameterTypes())) {
                    continue; // the same method declared by two superinterfaces
                }
                throw new IllegalArgumentException(type.getName() + " overloads " + method.getName()
                        + ": a message is named by its method, so method names must be unique");
            }
            for (Type parameter : method.getGenericParameterTypes()) {
                if (mentionsTypeVariable(parameter)) {
                    throw new IllegalArgumentException(describe(method) + " takes " + parameter.getTypeName()
                            + ": a message interface's parameters must be concrete types (a type variable decodes as a "
                            + "map, which no handler could take); declare a non-generic interface such as "
                            + "'interface OrderEvents extends Events<Order>' with the methods redeclared");
                }
            }
            methods.add(method);
        }
        return methods.toArray(Method[]::new);
    }

    private static boolean mentionsTypeVariable(Type type) {
        return switch (type) {
            case TypeVariable<?> variable -> true;
            case ParameterizedType parameterized -> Arrays.stream(parameterized.getActualTypeArguments())
                    .anyMatch(WriterPlan::mentionsTypeVariable);
            case GenericArrayType array -> mentionsTypeVariable(array.getGenericComponentType());
            case WildcardType wildcard -> Arrays.stream(wildcard.getUpperBounds())
                    .anyMatch(WriterPlan::mentionsTypeVariable)
                    || Arrays.stream(wildcard.getLowerBounds()).anyMatch(WriterPlan::mentionsTypeVariable);
            default -> false;
        };
    }

    /** {@code equals}, {@code hashCode} or {@code toString} declared again (as Comparator does): not messages. */
    private static boolean redeclaresObjectMethod(Method method) {
        try {
            Object.class.getMethod(method.getName(), method.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    static String describe(Method method) {
        return method.getDeclaringClass().getName() + "." + method.getName();
    }

    static MethodTypeDesc descriptor(Method method) {
        ClassDesc[] parameters = new ClassDesc[method.getParameterCount()];
        for (int i = 0; i < parameters.length; i++) {
            parameters[i] = HiddenClasses.describe(method.getParameterTypes()[i]);
        }
        ClassDesc returned = method.getReturnType() == void.class ? ConstantDescs.CD_void
                : HiddenClasses.describe(method.getReturnType());
        return MethodTypeDesc.of(returned, parameters);
    }
}
