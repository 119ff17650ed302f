package io.cq.spring.listener.invoke;

import io.cq.spring.support.ExcerptHeaders;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.GenericMessage;

import java.util.HashMap;
import java.util.Map;

/**
 * Spring Messaging's {@code Message<String>} or {@code Message<byte[]>}, with the headers of {@link ExcerptHeaders}
 * and those the excerpt carries (the writer's trace context: {@code traceparent} and friends).
 * Registered only when spring-messaging is on the class path.
 */
public final class MessageArgumentResolver implements ListenerArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        if (parameter.getParameterType() != Message.class) {
            return false;
        }
        Class<?> payload = ResolvableType.forMethodParameter(parameter).getGeneric(0).resolve(Object.class);
        if (payload != String.class && payload != byte[].class) {
            throw new IllegalStateException("parameter " + parameter.getParameterIndex() + " of "
                    + parameter.getMethod()
                    + " is a Message<" + payload.getSimpleName() + ">; only Message<String> and Message<byte[]> are "
                    + "supported");
        }
        return true;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, InboundExcerpt excerpt) {
        Class<?> payloadType = ResolvableType.forMethodParameter(parameter).getGeneric(0).resolve(Object.class);
        Object payload = payloadType == String.class ? excerpt.text() : excerpt.copyPayload();
        Map<String, Object> headers = new HashMap<>(excerpt.headers().toMap());
        headers.put(ExcerptHeaders.INDEX, excerpt.index());
        headers.put(ExcerptHeaders.QUEUE, excerpt.queueName());
        headers.put(ExcerptHeaders.LISTENER, excerpt.listenerId());
        return new GenericMessage<>(payload, headers);
    }
}
