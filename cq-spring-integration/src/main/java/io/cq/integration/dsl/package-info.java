/** The Java DSL: {@link io.cq.integration.dsl.Cq} and the specs it returns. */
package io.cq.integration.dsl;
