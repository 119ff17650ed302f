package io.cq.spring.listener.invoke;

import io.cq.core.ReadContext;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import tools.jackson.databind.JsonNode;

import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The excerpt a listener is being called with, as {@link ListenerArgumentResolver}s see it. Reused by its
 * container for each excerpt; valid only during the call, on the container's thread.
 */
public final class InboundExcerpt {
    private final String queueName;
    private final String listenerId;
    private final TextHeaders headers = new TextHeaders();
    private ReadContext context;
    private byte[] payload;
    private boolean headersRead;

    public InboundExcerpt(String queueName, String listenerId) {
        this.queueName = queueName;
        this.listenerId = listenerId;
    }

    /** Points this view at the next excerpt. */
    public void reset(ReadContext context) {
        this.context = context;
        this.payload = null;
        this.headersRead = false;
    }

    /** Rewinds the excerpt's cursor, so a retried call reads the same bytes from the start. */
    public void rewind() {
        context.bytes().position(0);
    }

    public ReadContext context() {
        return context;
    }

    public long index() {
        return context.index();
    }

    public String queueName() {
        return queueName;
    }

    public String listenerId() {
        return listenerId;
    }

    /**
     * The excerpt's bytes, copied on first use and shared by every resolver of the call: a listener may change its
     * array, but a retry gets a fresh copy.
     */
    public byte[] payload() {
        if (payload == null) {
            payload = context.bytes().segment().toArray(ValueLayout.JAVA_BYTE);
        }
        return payload;
    }

    /** A fresh copy of the excerpt's bytes, for a caller that keeps them. */
    public byte[] copyPayload() {
        return context.bytes().segment().toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The excerpt as text: a text excerpt's UTF-8 (what {@code appendText} and {@code ExcerptAppender.writeText}
     * write), or the text of a message holding one ({@code QueueTemplate.append(queue, "...")}, which carries the
     * writer's trace where a text excerpt cannot). Any other excerpt's bytes as UTF-8.
     */
    public String text() {
        if (Messages.isMessage(context.bytes()) && Messages.methodName(context.bytes()).isEmpty()) {
            JsonNode object = Messages.toTree(context).path("arguments").path(0);
            if (object.isString()) {
                return object.stringValue();
            }
        }
        return new String(payload(), StandardCharsets.UTF_8);
    }

    /**
     * The headers the excerpt carries (the writer's trace context, docs/messages.md "Headers"), read on first use;
     * empty for raw excerpts and messages written without any. Reused for the next excerpt: copy what you keep.
     */
    public TextHeaders headers() {
        if (!headersRead) {
            headersRead = true;
            Messages.readHeaders(context, headers);
        }
        return headers;
    }

    void forgetPayload() {
        payload = null;
    }
}
