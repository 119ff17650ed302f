package io.cq.core.internal.message;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;

/**
 * Whether Jackson would read a type otherwise than plainly: any Jackson annotation (or {@code java.beans} one, which
 * Jackson also reads) where Jackson looks for them. {@link RecordPlan} leaves such types to Jackson.
 */
final class JacksonAnnotations {
    private JacksonAnnotations() {
    }

    /**
     * Jackson reads annotations on all of these (and inherits them from interfaces, e.g. {@code @JsonTypeInfo} on
     * a sealed interface), and any of them may change the keys, the types or the way the record is created.
     */
    static boolean onRecord(Class<?> type) {
        if (annotated(type)) {
            return true;
        }
        for (Class<?> implemented : type.getInterfaces()) {
            if (inHierarchy(implemented)) {
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

    /** On the type, its methods, or any interface above it: for a record's interfaces and its enum components. */
    static boolean inHierarchy(Class<?> type) {
        if (annotated(type)) {
            return true;
        }
        for (Method method : type.getDeclaredMethods()) {
            if (annotated(method)) {
                return true;
            }
        }
        for (Class<?> parent : type.getInterfaces()) {
            if (inHierarchy(parent)) {
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
}
