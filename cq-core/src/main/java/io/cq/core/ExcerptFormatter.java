package io.cq.core;

import java.io.IOException;

/**
 * Renders one excerpt as text for {@link MappedQueue#dump(Appendable, ExcerptFormatter)}: the message layer
 * decodes its documents, the default shows printable UTF-8 as text and anything else as hex.
 */
@FunctionalInterface
public interface ExcerptFormatter {
    /**
     * Appends the excerpt's rendering (one line, no line break) to {@code out}.
     *
     * @param excerpt a read-only cursor over the whole excerpt, at position 0
     */
    void format(ExcerptBytes excerpt, Appendable out) throws IOException;
}
