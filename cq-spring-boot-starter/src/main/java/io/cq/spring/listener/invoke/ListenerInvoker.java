package io.cq.spring.listener.invoke;

/**
 * Hands one excerpt to a listener. {@link ListenerMethodInvoker} calls one annotated method; another implementation
 * may dispatch each excerpt to one of several methods (a method-reader style listener) and be registered
 * programmatically through a {@link io.cq.spring.config.ListenerEndpoint}.
 */
@FunctionalInterface
public interface ListenerInvoker {
    /**
     * Called on the container's thread; the excerpt is committed only after this returns.
     *
     * @throws Exception to have the excerpt retried, then handed to the error handler
     */
    void invoke(InboundExcerpt excerpt) throws Exception;
}
