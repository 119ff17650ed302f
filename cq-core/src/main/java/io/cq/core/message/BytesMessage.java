package io.cq.core.message;

import io.cq.core.ExcerptBytes;

/**
 * A message type that writes and reads itself with the cursor API: the fast path of method writers and readers,
 * with no reflection, no Jackson and no allocation per message.
 *
 * <p>A method writer calls {@link #writeTo(ExcerptBytes)} on the argument; the bytes are stored with their
 * length, so a reader whose {@link #readFrom(ExcerptBytes)} reads fewer fields (an older version of the type)
 * skips the rest. A method reader makes <b>one instance per parameter</b> of each handler method, through the
 * type's public no-argument constructor, and fills that same instance for every message: a handler must copy
 * whatever it keeps after it returns.
 *
 * <p>Evolve a type by appending fields at the end and, when reading, checking {@link ExcerptBytes#remaining()}
 * before reading the newer ones.
 */
public interface BytesMessage {
    /** Writes this message's fields at the cursor's position. */
    void writeTo(ExcerptBytes bytes);

    /** Replaces this instance's fields with those at the cursor, written by {@link #writeTo(ExcerptBytes)}. */
    void readFrom(ExcerptBytes bytes);
}
