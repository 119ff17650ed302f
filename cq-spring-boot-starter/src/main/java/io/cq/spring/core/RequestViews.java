package io.cq.spring.core;

import java.lang.classfile.ClassFile;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDescs;
import java.lang.constant.MethodTypeDesc;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The plain interface a method writer writes for a writer interface whose methods return futures: the same
 * methods (names and parameters) returning {@code void}, which is what cq's method writers require of an
 * interface. Calls through it are the messages a method writer of the original interface would write, had it
 * been allowed: the method's name and its arguments.
 *
 * <pre>
 * interface Quotes { CompletableFuture&lt;Quote&gt; quote(QuoteRequest request); void cancel(String id); }
 * // generated once, beside it, in its package and class loader:
 * public interface Quotes$$CqRequests { void quote(QuoteRequest request); void cancel(String id); }
 * </pre>
 *
 * The view is a normal class defined through a lookup in the interface's package, so that the method writer's own
 * generated class, defined next to the view, reaches the same package-private types the interface may name. That
 * needs the package to be open to the starter: always so on the class path. Its methods carry erased parameter
 * types; the writer encodes arguments the same way for those (documents by their runtime class). Thread-safe.
 */
final class RequestViews {
    private static final String SUFFIX = "$$CqRequests";

    private static final ClassValue<Class<?>> VIEWS = new ClassValue<>() {
        @Override
        protected Class<?> computeValue(Class<?> type) {
            return define(type);
        }
    };

    private RequestViews() {
    }

    /** The view of {@code type}, defined on first use. */
    static Class<?> of(Class<?> type) {
        return VIEWS.get(type);
    }

    /** The abstract methods of {@code type} that become messages, in the order {@code getMethods} lists them. */
    static List<Method> messageMethods(Class<?> type) {
        List<Method> methods = new ArrayList<>();
        Set<String> signatures = new HashSet<>();
        for (Method method : type.getMethods()) {
            // the same method declared by two superinterfaces is listed twice, and is one message
            if (Modifier.isAbstract(method.getModifiers()) && !isObjectMethod(method)
                    && signatures.add(method.getName() + Arrays.toString(method.getParameterTypes()))) {
                methods.add(method);
            }
        }
        return methods;
    }

    /** The view's method standing for {@code method} of the interface. */
    static Method viewMethod(Class<?> view, Method method) {
        try {
            return view.getMethod(method.getName(), method.getParameterTypes());
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("the request view " + view.getName() + " lacks " + method, e);
        }
    }

    private static Class<?> define(Class<?> type) {
        ClassDesc self = ClassDesc.of(type.getName() + SUFFIX);
        List<Method> methods = messageMethods(type);
        for (Method method : methods) {
            for (Type parameter : method.getGenericParameterTypes()) {
                if (mentionsTypeVariable(parameter)) {
                    // erased to its bound, it would be written and decoded as a map: refuse as method writers do
                    throw new IllegalArgumentException(type.getName() + "." + method.getName() + " takes "
                            + parameter.getTypeName() + ": a message interface's parameters must be concrete types");
                }
            }
        }
        byte[] bytes = ClassFile.of().build(self, cls -> {
            cls.withFlags(ClassFile.ACC_PUBLIC | ClassFile.ACC_INTERFACE | ClassFile.ACC_ABSTRACT
                            | ClassFile.ACC_SYNTHETIC)
                    .withSuperclass(ConstantDescs.CD_Object);
            for (Method method : methods) {
                cls.withMethod(method.getName(), voidDescriptor(method),
                        ClassFile.ACC_PUBLIC | ClassFile.ACC_ABSTRACT, m -> { });
            }
        });
        try {
            return MethodHandles.privateLookupIn(type, MethodHandles.lookup()).defineClass(bytes);
        } catch (IllegalAccessException e) {
            throw new IllegalArgumentException("cannot define the request view of " + type.getName() + ": its package "
                    + type.getPackageName() + " is not open to cq's starter (" + e.getMessage() + ")", e);
        } catch (LinkageError alreadyDefined) {
            // another copy of the starter (another class loader) defined it in the interface's class loader first
            try {
                return Class.forName(type.getName() + SUFFIX, false, type.getClassLoader());
            } catch (ClassNotFoundException notThere) {
                alreadyDefined.addSuppressed(notThere);
                throw alreadyDefined;
            }
        }
    }

    private static MethodTypeDesc voidDescriptor(Method method) {
        ClassDesc[] parameters = Arrays.stream(method.getParameterTypes())
                .map(parameter -> parameter.describeConstable().orElseThrow(() -> new IllegalArgumentException(
                        method + " takes " + parameter + ", which generated code cannot name")))
                .toArray(ClassDesc[]::new);
        return MethodTypeDesc.of(ConstantDescs.CD_void, parameters);
    }

    private static boolean isObjectMethod(Method method) {
        try {
            Object.class.getMethod(method.getName(), method.getParameterTypes());
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static boolean mentionsTypeVariable(Type type) {
        return switch (type) {
            case TypeVariable<?> variable -> true;
            case ParameterizedType parameterized -> Arrays.stream(parameterized.getActualTypeArguments())
                    .anyMatch(RequestViews::mentionsTypeVariable);
            case GenericArrayType array -> mentionsTypeVariable(array.getGenericComponentType());
            case WildcardType wildcard -> Arrays.stream(wildcard.getUpperBounds())
                    .anyMatch(RequestViews::mentionsTypeVariable);
            default -> false;
        };
    }
}
