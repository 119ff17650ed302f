package io.cq.spring.listener.invoke;

import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import io.cq.spring.annotation.Header;
import io.cq.spring.support.ExcerptHeaders;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;

import java.util.Set;

/**
 * {@code @Header("cq_index") long}, {@code @Header("cq_queue") String} and {@code @Header("cq_listener") String},
 * and the request headers {@code @Header("cq_correlation_id") String} and {@code @Header("cq_reply_to") String}
 * (null when the excerpt carries none), with cq's {@link Header} or Spring Messaging's (looked up by name, so
 * spring-messaging stays optional).
 */
public final class HeaderArgumentResolver implements ListenerArgumentResolver {
    private static final String MESSAGING_HEADER = "org.springframework.messaging.handler.annotation.Header";
    private static final Set<String> NAMES = Set.of(ExcerptHeaders.INDEX, ExcerptHeaders.QUEUE,
            ExcerptHeaders.LISTENER, ExcerptHeaders.CORRELATION_ID, ExcerptHeaders.REPLY_TO);

    /** The header a parameter asks for, or null when it has no header annotation. */
    static @Nullable String headerName(MethodParameter parameter) {
        Header own = parameter.getParameterAnnotation(Header.class);
        if (own != null) {
            return own.value();
        }
        MergedAnnotation<?> messaging = MergedAnnotations.from(parameter.getParameterAnnotations())
                .get(MESSAGING_HEADER);
        if (!messaging.isPresent()) {
            return null;
        }
        String value = messaging.getString("value");
        return value.isEmpty() ? messaging.getString("name") : value;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        String name = headerName(parameter);
        if (name == null) {
            return false;
        }
        Class<?> type = parameter.getParameterType();
        boolean fits = name.equals(ExcerptHeaders.INDEX) ? (type == long.class || type == Long.class)
                : NAMES.contains(name) && type == String.class;
        if (!fits) {
            throw new IllegalStateException("parameter " + parameter.getParameterIndex() + " of "
                    + parameter.getMethod() + " asks for header '" + name + "' as " + type.getSimpleName()
                    + "; the headers are cq_index (long), cq_queue, cq_listener, cq_correlation_id and cq_reply_to "
                    + "(String)");
        }
        return true;
    }

    @Override
    public @Nullable Object resolveArgument(MethodParameter parameter, InboundExcerpt excerpt) {
        String name = headerName(parameter);
        return switch (name) {
            case ExcerptHeaders.INDEX -> excerpt.index();
            case ExcerptHeaders.QUEUE -> excerpt.queueName();
            case ExcerptHeaders.LISTENER -> excerpt.listenerId();
            default -> textHeader(excerpt, name);
        };
    }

    /** A header the message carries ({@code TextHeaders}); null for raw excerpts and messages without it. */
    private static @Nullable String textHeader(InboundExcerpt excerpt, String name) {
        TextHeaders headers = new TextHeaders();
        try {
            return Messages.readHeaders(excerpt.context(), headers) ? headers.get(name) : null;
        } catch (MessageDecodingException malformed) {
            return null; // the arguments may still decode; the excerpt just carries no usable headers
        }
    }
}
