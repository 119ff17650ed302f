package io.cq.core.message;

import io.cq.core.ExcerptBytes;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;
import tools.jackson.dataformat.cbor.CBORMapper;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Message excerpts written by hand, as an attacker with write access to a queue could (docs/messages.md, "Layout"). */
final class CraftedMessages {
    private CraftedMessages() {
    }

    /** A call of {@code method} whose one argument is the given document, encoded as CBOR. */
    static void append(MappedQueue queue, String method, Map<String, Object> document) {
        append(queue, method, new CBORMapper().writeValueAsBytes(document));
    }

    /** A call of {@code method} whose one argument is the given CBOR bytes, whatever they hold. */
    static void append(MappedQueue queue, String method, byte[] cbor) {
        byte[] name = method.getBytes(StandardCharsets.UTF_8);
        try (WriteContext context = queue.acquireAppender().writingDocument()) {
            ExcerptBytes bytes = context.bytes();
            bytes.writeInt('c' | 'q' << 8 | 'm' << 16 | 1 << 24).writeByte((byte) 0);
            bytes.writeByte((byte) name.length).writeBytes(name).writeByte((byte) 1);
            bytes.writeByte((byte) 'O').writeInt(cbor.length).writeBytes(cbor);
        }
    }
}
