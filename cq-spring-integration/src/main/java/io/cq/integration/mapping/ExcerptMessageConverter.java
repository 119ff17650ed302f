package io.cq.integration.mapping;

import io.cq.core.ExcerptBytes;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import io.cq.integration.CqHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;
import tools.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Turns the excerpt being read into a Spring {@link Message} of one payload type, with the {@link CqHeaders},
 * the headers the excerpt carries (the writer's trace context: {@code traceparent} and friends, docs/messages.md
 * "Headers") and, for an envelope, the headers it kept:
 *
 * <ul>
 *   <li>an envelope ({@link SpringMessageEnvelope}): its payload as the payload type, its headers; text and
 *       bytes as they would read without headers (UTF-8 between the two), an object decoded, or for a
 *       {@code byte[]} reader the envelope's own bytes;</li>
 *   <li>{@code byte[]}: any other excerpt's bytes as they are (a message excerpt too, so a bridge can copy
 *       excerpts verbatim);</li>
 *   <li>{@code String}: a text or raw excerpt as UTF-8, or the object of {@code writeObject};</li>
 *   <li>any other type: the object of {@code writeObject}, decoded by the message layer with its allow-list.</li>
 * </ul>
 *
 * Anything else (a method writer's message for a non-{@code byte[]} reader, raw bytes for an object reader, a
 * document of the wrong shape) is an {@link ExcerptConversionException}. Never moves the tailer: the caller's
 * read context commits or rolls back. Thread-safe (stateless apart from its settings).
 */
public final class ExcerptMessageConverter {
    private final MappedQueue queue;
    private final String queueName;
    private final Class<?> payloadType;

    public ExcerptMessageConverter(MappedQueue queue, Class<?> payloadType) {
        this.queue = queue;
        this.queueName = queue.path().getFileName().toString();
        this.payloadType = payloadType;
    }

    /** The payload type messages get. */
    public Class<?> payloadType() {
        return payloadType;
    }

    /** The name put in {@link CqHeaders#QUEUE}: the queue directory's name. */
    public String queueName() {
        return queueName;
    }

    /**
     * The message for the present excerpt of {@code context}.
     *
     * @throws ExcerptConversionException when the excerpt cannot be a message of the payload type
     */
    public Message<?> toMessage(ReadContext context) {
        return toMessage(context, new TextHeaders());
    }

    /**
     * {@link #toMessage(ReadContext)}, reading the headers the excerpt carries into {@code carried} (the caller's,
     * reused), for a caller that also continues the writer's trace from them.
     *
     * @throws ExcerptConversionException when the excerpt cannot be a message of the payload type
     */
    public Message<?> toMessage(ReadContext context, TextHeaders carried) {
        long index = context.index();
        try {
            MessageBuilder<?> builder = convert(context);
            if (Messages.readHeaders(context, carried)) {
                // After the envelope's kept headers: the excerpt's own are those of the latest writer.
                builder.copyHeaders(carried.toMap());
            }
            return builder.setHeader(CqHeaders.QUEUE, queueName)
                    .setHeader(CqHeaders.INDEX, index)
                    .setHeader(CqHeaders.CYCLE, queue.rollCycle().toCycle(index))
                    .build();
        } catch (ExcerptConversionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ExcerptConversionException(queueName, index, "it does not decode as a " + payloadType.getName()
                    + ": " + e.getMessage(), e);
        }
    }

    private MessageBuilder<?> convert(ReadContext context) {
        ExcerptBytes bytes = context.bytes();
        if (Messages.isMessage(bytes)) {
            String method = Messages.methodName(bytes);
            if (SpringMessageEnvelope.METHOD.equals(method)) {
                return fromEnvelope(context);
            }
            if (payloadType == byte[].class) {
                return MessageBuilder.withPayload(copy(bytes));
            }
            if (method.isEmpty()) {
                return MessageBuilder.withPayload(Messages.readObject(context, payloadType));
            }
            throw new ExcerptConversionException(queueName, context.index(), "it is a message of method '" + method
                    + "' (read it with a method reader, or with payload type byte[] to copy it as it is)", null);
        }
        if (payloadType == byte[].class) {
            return MessageBuilder.withPayload(copy(bytes));
        }
        if (payloadType == String.class) {
            return MessageBuilder.withPayload(new String(copy(bytes), StandardCharsets.UTF_8));
        }
        throw new ExcerptConversionException(queueName, context.index(), "it holds raw bytes or text, not an object "
                + "written by writeObject; read it with payload type String or byte[]", null);
    }

    /** The envelope's payload as the payload type, and the headers it kept. */
    private MessageBuilder<?> fromEnvelope(ReadContext context) {
        JsonNode arguments = Messages.toTree(context).get("arguments");
        JsonNode payloadNode = arguments.get(0);
        if (payloadNode == null || payloadNode.isNull()) {
            throw new ExcerptConversionException(queueName, context.index(), "its envelope has no payload", null);
        }
        MessageBuilder<?> builder = MessageBuilder.withPayload(envelopePayload(context, payloadNode));
        JsonNode headers = arguments.get(1);
        if (headers != null && headers.isObject()) {
            for (Map.Entry<String, JsonNode> header : headers.properties()) {
                builder.setHeader(header.getKey(), headerValue(header.getValue()));
            }
        }
        return builder;
    }

    /**
     * Text and bytes in an envelope read as they would in an excerpt without headers: as themselves where the
     * payload type allows them (so an {@code Object} channel carries them next to objects), and as each other,
     * in UTF-8, for a {@code String} or {@code byte[]} reader. Jackson must not convert between them: it reads
     * text as Base64 for a {@code byte[]} and writes bytes as Base64 for a {@code String}, which turned a bridged
     * text payload into garbage or a conversion failure. Any other payload is an object: a {@code byte[]} reader
     * gets the envelope as it is, like any other message excerpt, so a copy keeps the object and its headers;
     * the other types decode it, including text for a type that Jackson writes as text (an enum, a {@code UUID}).
     */
    private Object envelopePayload(ReadContext context, JsonNode payload) {
        if (payload.isString()) {
            if (payloadType.isAssignableFrom(String.class)) {
                return payload.stringValue();
            }
            if (payloadType == byte[].class) {
                return payload.stringValue().getBytes(StandardCharsets.UTF_8);
            }
        } else if (payload.isBinary()) {
            if (payloadType.isAssignableFrom(byte[].class)) {
                return payload.binaryValue();
            }
            if (payloadType == String.class) {
                return new String(payload.binaryValue(), StandardCharsets.UTF_8);
            }
        } else if (payloadType == byte[].class) {
            return copy(context.bytes());
        }
        return Messages.readObject(context, payloadType);
    }

    /** The header document holds only what {@link MessageExcerptWriter} keeps: text, numbers and booleans. */
    private static Object headerValue(JsonNode node) {
        if (node.isInt()) {
            return node.intValue();
        }
        if (node.isIntegralNumber()) {
            return node.longValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        return node.isString() ? node.stringValue() : node.toString();
    }

    private static byte[] copy(ExcerptBytes bytes) {
        long start = bytes.position();
        byte[] copy = new byte[Math.toIntExact(bytes.length())];
        bytes.position(0);
        bytes.readBytes(copy, 0, copy.length);
        bytes.position(start);
        return copy;
    }
}
