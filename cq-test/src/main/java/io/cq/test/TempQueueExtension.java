package io.cq.test;

import io.cq.core.MappedQueue;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ModifierSupport;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Gives {@link TempQueue} fields and parameters their queues. {@code @TempQueue} registers it; a test never needs to
 * name it.
 *
 * <p>Each queue is kept in the JUnit store of the context it was asked for in (the test's, or the class's for a
 * static field or a {@code @BeforeAll} parameter), under its name. The store looks in enclosing contexts first, so
 * one name means one queue within a scope, and the store closes the queue when its context ends.
 */
public final class TempQueueExtension implements BeforeAllCallback, BeforeEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(TempQueueExtension.class);
    /** The rule of named tailers: a name that is also a safe, single directory name. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    @Override
    public void beforeAll(ExtensionContext context) {
        injectFields(context, context.getRequiredTestClass(), null, ModifierSupport::isStatic);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        // every instance: a @Nested test's outer instances may declare @TempQueue fields too
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            injectFields(context, instance.getClass(), instance, ModifierSupport::isNotStatic);
        }
    }

    private static void injectFields(ExtensionContext context, Class<?> type, @Nullable Object instance,
                                     Predicate<Field> which) {
        for (Field field : AnnotationSupport.findAnnotatedFields(type, TempQueue.class, which,
                HierarchyTraversalMode.TOP_DOWN)) {
            String where = "@TempQueue field " + field.getDeclaringClass().getSimpleName() + "." + field.getName();
            if (!field.getType().isAssignableFrom(MappedQueue.class)) {
                throw new ExtensionConfigurationException(where + " is a " + field.getType().getName()
                        + "; @TempQueue goes on a " + MappedQueue.class.getName());
            }
            if (Modifier.isFinal(field.getModifiers())) {
                throw new ExtensionConfigurationException(where + " is final; the queue cannot be set into it");
            }
            TempQueue declaration = field.getAnnotation(TempQueue.class);
            try {
                field.setAccessible(true);
                field.set(instance, queue(context, declaration, where));
            } catch (IllegalAccessException e) {
                throw new ExtensionConfigurationException(where + " cannot be set: " + e.getMessage(), e);
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        if (!parameter.isAnnotated(TempQueue.class)) {
            return false;
        }
        if (!parameter.getParameter().getType().isAssignableFrom(MappedQueue.class)) {
            throw new ParameterResolutionException(describe(parameter) + " is a "
                    + parameter.getParameter().getType().getName() + "; @TempQueue goes on a "
                    + MappedQueue.class.getName());
        }
        return true;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TempQueue declaration = parameter.findAnnotation(TempQueue.class).orElseThrow();
        return queue(context, declaration, describe(parameter));
    }

    private static String describe(ParameterContext parameter) {
        return "@TempQueue parameter '" + parameter.getParameter().getName() + "' of "
                + parameter.getDeclaringExecutable().getName();
    }

    private static MappedQueue queue(ExtensionContext context, TempQueue declaration, String where) {
        String name = declaration.name();
        if (!NAME.matcher(name).matches()) {
            throw new ExtensionConfigurationException(where + ": name='" + name + "' must be 1 to 64 letters, digits, "
                    + "'.', '_' or '-', starting with a letter or digit");
        }
        TemporaryQueue queue = context.getStore(NAMESPACE).computeIfAbsent(name,
                key -> TemporaryQueue.open(key, declaration.rollCycle()), TemporaryQueue.class);
        if (queue.rollCycle() != declaration.rollCycle()) {
            throw new ExtensionConfigurationException(where + " asks for the queue '" + name + "' with rollCycle="
                    + declaration.rollCycle() + ", but it was declared with rollCycle=" + queue.rollCycle()
                    + " elsewhere in the same test; give one of them another name");
        }
        return queue.queue();
    }
}
