package io.cq.spring.listener.invoke;

import io.cq.core.ReadContext;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;

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
     * The excerpt as UTF-8 text: what {@code appendText} and {@code ExcerptAppender.writeText} write; for a message
     * excerpt whose first argument is text ({@code QueueTemplate.append(queue, "...")}, which carries the writer's
     * trace where a text excerpt cannot; a request of {@code sendAndReceive("q", "text", ...)}; a method-writer call),
     * that argument.
     */
    public String text() {
        if (Messages.isMessage(context.bytes())) {
            try {
                return Messages.readObject(context, String.class);
            } catch (MessageDecodingException notText) {
                // isMessage looks at three signature bytes, which a text may begin with ("cqm..."), and a message
                // whose first argument is no text has no text to give: both read as their bytes, as they always did
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
