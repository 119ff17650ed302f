package io.cq.core.internal.message;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import tools.jackson.databind.DatabindContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;

import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;

/**
 * The classes a reader may instantiate when the data names one (a {@code @JsonTypeInfo(use = CLASS)} id):
 * those reachable from the handler methods' parameter types (record components, fields, sealed subtypes and
 * {@code @JsonSubTypes}), plus what the user adds. Every other name is refused before any class is loaded,
 * which is what stops gadget chains such as {@code com.sun.rowset.JdbcRowSetImpl}.
 */
final class AllowList extends PolymorphicTypeValidator.Base {
    /** Allows no named type at all: for writing and for untyped trees. */
    static final AllowList NOTHING = new AllowList(Set.of());

    private final Set<String> names;

    private AllowList(Set<String> names) {
        this.names = names;
    }

    static AllowList reachableFrom(Collection<Method> methods, Collection<Class<?>> extra) {
        Set<Class<?>> seen = new HashSet<>();
        for (Method method : methods) {
            for (Type parameter : method.getGenericParameterTypes()) {
                walk(parameter, seen);
            }
        }
        for (Class<?> type : extra) {
            walk(type, seen);
        }
        Set<String> names = new HashSet<>();
        for (Class<?> type : seen) {
            names.add(type.getName());
        }
        return new AllowList(Set.copyOf(names));
    }

    static AllowList reachableFrom(Class<?> type) {
        Set<Class<?>> seen = new HashSet<>();
        walk(type, seen);
        Set<String> names = new HashSet<>();
        seen.forEach(c -> names.add(c.getName()));
        return new AllowList(Set.copyOf(names));
    }

    boolean allows(String className) {
        return names.contains(className);
    }

    private static void walk(Type type, Set<Class<?>> seen) {
        switch (type) {
            case Class<?> c -> walkClass(c, seen);
            case ParameterizedType p -> {
                walk(p.getRawType(), seen);
                for (Type argument : p.getActualTypeArguments()) {
                    walk(argument, seen);
                }
            }
            case GenericArrayType a -> walk(a.getGenericComponentType(), seen);
            case WildcardType w -> {
                for (Type bound : w.getUpperBounds()) {
                    walk(bound, seen);
                }
            }
            case TypeVariable<?> v -> {
                for (Type bound : v.getBounds()) {
                    walk(bound, seen);
                }
            }
            default -> {
            }
        }
    }

    private static void walkClass(Class<?> c, Set<Class<?>> seen) {
        if (c.isPrimitive() || !seen.add(c)) {
            return;
        }
        if (c.isArray()) {
            walk(c.getComponentType(), seen);
            return;
        }
        // The JDK's own types are leaves: their fields are not what a document describes.
        String name = c.getName();
        if (name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")) {
            return;
        }
        if (c.isRecord()) {
            for (RecordComponent component : c.getRecordComponents()) {
                walk(component.getGenericType(), seen);
            }
        }
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            seen.add(k);
            for (Field field : k.getDeclaredFields()) {
                if (!Modifier.isStatic(field.getModifiers())) {
                    walk(field.getGenericType(), seen);
                }
            }
        }
        if (c.isSealed()) {
            for (Class<?> permitted : c.getPermittedSubclasses()) {
                walk(permitted, seen);
            }
        }
        JsonSubTypes subTypes = c.getAnnotation(JsonSubTypes.class);
        if (subTypes != null) {
            for (JsonSubTypes.Type subType : subTypes.value()) {
                walk(subType.value(), seen);
            }
        }
    }

    @Override
    public Validity validateBaseType(DatabindContext context, JavaType baseType) {
        return Validity.INDETERMINATE;
    }

    @Override
    public Validity validateSubClassName(DatabindContext context, JavaType baseType, String subClassName) {
        return names.contains(subClassName) ? Validity.ALLOWED : Validity.DENIED;
    }

    @Override
    public Validity validateSubType(DatabindContext context, JavaType baseType, JavaType subType) {
        return names.contains(subType.getRawClass().getName()) ? Validity.ALLOWED : Validity.DENIED;
    }
}
