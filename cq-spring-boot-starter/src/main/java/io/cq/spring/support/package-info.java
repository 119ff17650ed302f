/** Types shared by the other packages: excerpt header names and the exception for an invalid property. */
@NullMarked
package io.cq.spring.support;

import org.jspecify.annotations.NullMarked;
