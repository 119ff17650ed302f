/**
 * How listener containers are made and controlled: the endpoint read from an annotation, the container factory and
 * its settings, and the registry that starts, stops and finds containers by id.
 */
@NullMarked
package io.cq.spring.config;

import org.jspecify.annotations.NullMarked;
