package io.cq.core.internal.message;

/**
 * Calls one interface method on a handler with arguments pulled from an {@link ArgumentDecoder}, in generated
 * code ({@link InvokerClassGenerator}): no reflection and no boxing. Public only for the generated classes.
 */
public interface MethodInvoker {
    void invoke(Object handler, ArgumentDecoder arguments);
}
