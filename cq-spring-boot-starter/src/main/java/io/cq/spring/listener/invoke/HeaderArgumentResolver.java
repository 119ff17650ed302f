package io.cq.spring.listener.invoke;

import io.cq.spring.annotation.Header;
import io.cq.spring.support.ExcerptHeaders;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;

import java.util.Set;

/**
 * {@code @Header("cq_index") long}, {@code @Header("cq_queue") String} and {@code @Header("cq_listener") String},
 * with cq's {@link Header} or Spring Messaging's (looked up by name, so spring-messaging stays optional).
 */
public final class HeaderArgumentResolver implements ListenerArgumentResolver {
    private static final String MESSAGING_HEADER = "org.springframework.messaging.handler.annotation.Header";
    private static final Set<String> NAMES = Set.of(ExcerptHeaders.INDEX, ExcerptHeaders.QUEUE,
            ExcerptHeaders.LISTENER);

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
                    + "; the headers are cq_index (long), cq_queue (String) and cq_listener (String)");
        }
        return true;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, InboundExcerpt excerpt) {
        return switch (headerName(parameter)) {
            case ExcerptHeaders.INDEX -> excerpt.index();
            case ExcerptHeaders.QUEUE -> excerpt.queueName();
            default -> excerpt.listenerId();
        };
    }
}
