/**
 * Application events published by listener containers: started, stopped, idle and caught up. They hold their container
 * as an {@code Object}, so that this package depends on no other of the starter's.
 */
@NullMarked
package io.cq.spring.event;

import org.jspecify.annotations.NullMarked;
