/**
 * The annotations an application puts on its code: {@link io.cq.spring.annotation.QueueListener},
 * {@link io.cq.spring.annotation.QueueWriter}, {@link io.cq.spring.annotation.Header} and
 * {@link io.cq.spring.annotation.SendTo}. Nothing else: the code that reads them lives in the packages above
 * ({@code config}, {@code listener.invoke}, {@code core}), so this package depends on none of them.
 */
@NullMarked
package io.cq.spring.annotation;

import org.jspecify.annotations.NullMarked;
