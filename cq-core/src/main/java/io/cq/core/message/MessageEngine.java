package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * cq's message codec as {@link Messages} and the method builders reach it. Implemented once, inside cq-core, and
 * found by name when first used (docs/architecture.md, "The API and the engine"): the codec uses this package's
 * types, so this package must not depend on the codec's, or the two would form a package cycle. Applications neither
 * implement nor call it. An index of -1 stands for an excerpt read outside a read context.
 */
public interface MessageEngine {
    <T> T methodWriter(Class<T> type, ExcerptAppender appender, boolean history, int sourceId, TextHeaders headers);

    MethodReader methodReader(ExcerptTailer tailer, List<Object> handlers, Map<Object, List<Class<?>>> onlyInterfaces,
                              Collection<Class<?>> allowedTypes, boolean history);

    long writeObject(ExcerptAppender appender, Object value, TextHeaders headers);

    <T> T readObject(ExcerptTailer tailer, Class<T> type);

    <T> T decode(ReadContext context, Class<T> type);

    long write(ExcerptAppender appender, String method, List<? extends JsonNode> arguments);

    boolean readHeaders(ExcerptBytes bytes, long index, TextHeaders into);

    boolean isMessage(ExcerptBytes bytes);

    String methodName(ExcerptBytes bytes, long index);

    ObjectNode toTree(ExcerptBytes bytes, long index);

    /** Makes the record types of the queue in {@code directory} known to {@link #toTree}. */
    void useRecordTypesOf(Path directory);

    /** Called once by cq's codec as its class is initialized; refused for any other implementation. */
    static void install(MessageEngine engine) {
        MessageEngines.install(engine);
    }
}
