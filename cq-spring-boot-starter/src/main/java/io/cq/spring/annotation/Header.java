package io.cq.spring.annotation;

import io.cq.spring.support.ExcerptHeaders;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a {@link QueueListener} parameter to a fact about the excerpt: {@value ExcerptHeaders#INDEX} ({@code long}),
 * {@value ExcerptHeaders#QUEUE} or {@value ExcerptHeaders#LISTENER} ({@code String}), or a request header:
 * {@value ExcerptHeaders#CORRELATION_ID} or {@value ExcerptHeaders#REPLY_TO} ({@code String}, null when the
 * excerpt is no request). Spring Messaging's own {@code @Header} works as well.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Header {
    /** The header's name. */
    String value();
}
