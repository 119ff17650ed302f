package io.cq.core.internal.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;
import io.cq.core.message.MessageEngine;
import io.cq.core.message.MethodReader;
import io.cq.core.message.TextHeaders;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The codec behind {@link io.cq.core.message.Messages}: it installs itself when the API loads it by name
 * (docs/architecture.md, "The API and the engine"). Each call goes straight to the class that does the work; Jackson
 * is loaded by those that use it, not by this one.
 */
public final class CborMessageEngine implements MessageEngine {
    static {
        MessageEngine.install(new CborMessageEngine());
    }

    private CborMessageEngine() {
    }

    @Override
    public <T> T methodWriter(Class<T> type, ExcerptAppender appender, boolean history, int sourceId,
                              TextHeaders headers) {
        return MethodWriters.create(type, appender, history, sourceId, headers);
    }

    @Override
    public MethodReader methodReader(ExcerptTailer tailer, List<Object> handlers,
                                     Map<Object, List<Class<?>>> onlyInterfaces, Collection<Class<?>> allowedTypes,
                                     boolean history) {
        return MethodReaders.create(tailer, handlers, onlyInterfaces, allowedTypes, history);
    }

    @Override
    public long writeObject(ExcerptAppender appender, Object value, TextHeaders headers) {
        return ObjectMessages.write(appender, value, headers);
    }

    @Override
    public <T> T readObject(ExcerptTailer tailer, Class<T> type) {
        return ObjectMessages.read(tailer, type);
    }

    @Override
    public <T> T decode(ReadContext context, Class<T> type) {
        return ObjectMessages.decode(context, type);
    }

    @Override
    public long write(ExcerptAppender appender, String method, List<? extends JsonNode> arguments) {
        return TreeMessages.write(appender, method, arguments);
    }

    @Override
    public boolean readHeaders(ExcerptBytes bytes, long index, TextHeaders into) {
        return MessageTrees.readHeaders(bytes, index, into);
    }

    @Override
    public boolean isMessage(ExcerptBytes bytes) {
        return MessageTrees.isMessage(bytes);
    }

    @Override
    public String methodName(ExcerptBytes bytes, long index) {
        return MessageTrees.methodName(bytes, index);
    }

    @Override
    public ObjectNode toTree(ExcerptBytes bytes, long index) {
        return MessageTrees.toTree(bytes, index);
    }

    @Override
    public void useRecordTypesOf(Path directory) {
        MessageTrees.useRecordTypesOf(directory);
    }
}
