/**
 * Types shared by the other packages: excerpt header names, and the exceptions for an invalid property and for
 * codecs or keys a queue cannot be opened with.
 */
@NullMarked
package io.cq.spring.support;

import org.jspecify.annotations.NullMarked;
