package io.cq.spring.annotation;


import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a {@link QueueListener} parameter to a fact about the excerpt:
 * {@value io.cq.spring.support.ExcerptHeaders#INDEX} ({@code long}), {@value io.cq.spring.support.ExcerptHeaders#QUEUE}
 * or {@value io.cq.spring.support.ExcerptHeaders#LISTENER} ({@code String}), or a request header:
 * {@value io.cq.spring.support.ExcerptHeaders#CORRELATION_ID} or {@value io.cq.spring.support.ExcerptHeaders#REPLY_TO}
 * ({@code String}, null when the excerpt is no request). Spring Messaging's own {@code @Header} works as well.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Header {
    /** The header's name. */
    String value();
}
