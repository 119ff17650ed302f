/**
 * The message layer: method writers and readers, self-describing documents encoded as CBOR through Jackson,
 * a reflection-free fast path ({@link io.cq.core.message.BytesMessage}), message history, and a decoder that
 * shows any message excerpt as JSON. The user guide is docs/messages.md; the binary layout is in
 * docs/file-format.md, "Message excerpts".
 *
 * <p>Jackson is loaded only when this layer is used: the engine ({@link io.cq.core.ExcerptAppender},
 * {@link io.cq.core.ExcerptTailer} and raw excerpts) never touches it.
 */
package io.cq.core.message;
