/**
 * Spring test support: {@link io.cq.test.spring.EmbeddedQueues} gives each test application context a fresh queue
 * directory. Needs spring-test and spring-context, which a Spring test has already.
 */
@NullMarked
package io.cq.test.spring;

import org.jspecify.annotations.NullMarked;
