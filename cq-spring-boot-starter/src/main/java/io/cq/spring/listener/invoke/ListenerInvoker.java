package io.cq.spring.listener.invoke;

/**
 * Hands one excerpt to a listener. {@link ListenerMethodInvoker} calls one annotated method; another implementation
 * may dispatch each excerpt to one of several methods (a method-reader style listener) and be registered
 * programmatically through a {@link io.cq.spring.listener.ListenerEndpoint}.
 */
@FunctionalInterface
public interface ListenerInvoker {
    /**
     * Called on the container's thread; the excerpt is committed only after this returns.
     *
     * @throws Exception to have the excerpt retried, then handed to the error handler
     */
    void invoke(InboundExcerpt excerpt) throws Exception;

    /**
     * Called once on the container's thread when the excerpt failed for the last time (its retries are exhausted,
     * or it does not decode), before the error handler decides; the excerpt is still readable. A replying
     * listener sends its error reply here, so that a requester learns of the failure once, after the retries,
     * and not after each attempt. The default does nothing.
     */
    default void retriesExhausted(InboundExcerpt excerpt, Exception error) {
    }
}
