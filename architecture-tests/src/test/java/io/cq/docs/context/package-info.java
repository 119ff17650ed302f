/**
 * The types the documentation's examples take as given (an application's own {@code Order}, {@code Trade},
 * services ...), so that {@link io.cq.docs.DocSnippetsTest} can compile its blocks. Not part of cq.
 */
package io.cq.docs.context;
