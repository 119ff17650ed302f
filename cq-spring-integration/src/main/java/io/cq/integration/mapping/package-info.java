/**
 * How Spring {@code Message}s become excerpts and back (docs/spring-integration.md, "Payloads and headers"):
 * {@code String} as a text excerpt, {@code byte[]} as raw bytes, any other payload through the message layer
 * ({@code writeObject}), and, when headers are kept, a {@link io.cq.integration.mapping.SpringMessageEnvelope}
 * message carrying the payload and a small header document.
 */
package io.cq.integration.mapping;
