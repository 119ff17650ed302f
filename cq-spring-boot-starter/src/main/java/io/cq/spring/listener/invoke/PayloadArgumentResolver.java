package io.cq.spring.listener.invoke;

import io.cq.core.ExcerptBytes;
import io.cq.core.ReadContext;
import org.springframework.core.MethodParameter;

/**
 * The excerpt itself: {@code String} (as UTF-8 text), {@code byte[]}, {@link ReadContext} or {@link ExcerptBytes},
 * for a parameter without a header annotation.
 */
public final class PayloadArgumentResolver implements ListenerArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        if (HeaderArgumentResolver.headerName(parameter) != null) {
            return false;
        }
        Class<?> type = parameter.getParameterType();
        return type == String.class || type == byte[].class || type == ReadContext.class || type == ExcerptBytes.class;
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, InboundExcerpt excerpt) {
        Class<?> type = parameter.getParameterType();
        if (type == String.class) {
            return excerpt.text();
        }
        if (type == byte[].class) {
            return excerpt.payload();
        }
        if (type == ReadContext.class) {
            return excerpt.context();
        }
        return excerpt.context().bytes();
    }
}
