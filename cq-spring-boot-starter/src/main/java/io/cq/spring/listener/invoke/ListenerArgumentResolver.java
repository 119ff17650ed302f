package io.cq.spring.listener.invoke;

import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;

/**
 * Supplies one kind of {@link io.cq.spring.annotation.QueueListener} method parameter from the excerpt being
 * delivered. Asked once per parameter at start-up ({@link #supportsParameter}); the first resolver that
 * supports a parameter resolves it for every excerpt. Beans of this type come before the built-in resolvers, so
 * an application (or the message layer, for decoded payload objects) can add parameter kinds.
 */
public interface ListenerArgumentResolver {

    boolean supportsParameter(MethodParameter parameter);

    /** Called on the container's thread for each call; must not keep the excerpt or its cursor. */
    @Nullable Object resolveArgument(MethodParameter parameter, InboundExcerpt excerpt);
}
