package io.cq.spring.listener.invoke;

import io.cq.core.message.Messages;
import org.springframework.core.MethodParameter;

/**
 * Any other parameter type: the payload object of a message excerpt ({@code QueueTemplate.append},
 * {@code ExcerptAppender.writeObject}, or the first argument of a method-writer call), decoded by the message
 * layer with the allow-list of {@code ExcerptTailer.readObject}. An excerpt that does not decode fails with a
 * {@link io.cq.core.message.MessageDecodingException}, which the container does not retry.
 */
public final class DocumentArgumentResolver implements ListenerArgumentResolver {
    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return HeaderArgumentResolver.headerName(parameter) == null && !parameter.getParameterType().isPrimitive();
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, InboundExcerpt excerpt) {
        return Messages.readObject(excerpt.context(), parameter.getParameterType());
    }
}
