package io.cq.spring.listener.invoke;

import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;

/**
 * Calls one listener method with the arguments its parameters ask for. The resolver of each parameter is chosen
 * once, when the invoker is built, so a method with a parameter nobody supports fails start-up, not the first
 * excerpt.
 */
public final class ListenerMethodInvoker implements ListenerInvoker {
    private final Object bean;
    private final Method method;
    private final MethodParameter[] parameters;
    private final ListenerArgumentResolver[] resolvers;

    public ListenerMethodInvoker(Object bean, Method method, List<ListenerArgumentResolver> available) {
        this.bean = bean;
        this.method = method;
        ReflectionUtils.makeAccessible(method);
        int count = method.getParameterCount();
        this.parameters = new MethodParameter[count];
        this.resolvers = new ListenerArgumentResolver[count];
        for (int i = 0; i < count; i++) {
            MethodParameter parameter = new MethodParameter(method, i);
            parameters[i] = parameter;
            resolvers[i] = available.stream().filter(resolver -> resolver.supportsParameter(parameter)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("@QueueListener method " + method + ": parameter "
                            + parameter.getParameterIndex() + " of type " + parameter.getParameterType().getName()
                            + " is not supported; use String, byte[], ReadContext, ExcerptBytes, @Header(\"cq_index\") "
                            + "long, @Header(\"cq_queue\") String, Message<String|byte[]>, or any object type (the "
                            + "payload "
                            + "object of a message), or add a ListenerArgumentResolver bean"));
        }
    }

    /**
     * Calls the method with this excerpt.
     *
     * @throws Exception what the method threw
     */
    @Override
    public void invoke(InboundExcerpt excerpt) throws Exception {
        call(excerpt);
    }

    /**
     * Calls the method with this excerpt and returns what it returned (null for {@code void}).
     *
     * @throws Exception what the method threw
     */
    public @Nullable Object call(InboundExcerpt excerpt) throws Exception {
        excerpt.rewind();
        excerpt.forgetPayload();
        Object[] arguments = new Object[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            arguments[i] = resolvers[i].resolveArgument(parameters[i], excerpt);
        }
        try {
            return method.invoke(bean, arguments);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw (Error) cause;
        }
    }

    public Method method() {
        return method;
    }

    @Override
    public String toString() {
        return method.getDeclaringClass().getSimpleName() + "." + method.getName();
    }
}
