/** Application events published by listener containers: started, stopped, idle and caught up. */
@NullMarked
package io.cq.spring.event;

import org.jspecify.annotations.NullMarked;
