package io.cq.integration.mapping;

import io.cq.core.ExcerptAppender;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.util.PatternMatchUtils;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Appends a Spring {@link Message} as one excerpt. Without kept headers the excerpt is what a plain cq program
 * would write, so any tailer can read it: a {@code String} payload as text, a {@code byte[]} as raw bytes, any
 * other payload through {@code writeObject}. When headers matching the patterns are present, the excerpt is a
 * {@link SpringMessageEnvelope} instead: the payload and a map of those headers.
 *
 * <p>Kept header values must be text, numbers or booleans; a {@code UUID}, enum or {@code CharSequence} travels
 * as its text, and values of other types (channels, callbacks, objects) are left out: a header document is meant
 * to stay small. {@code id} and {@code timestamp} are never kept (a read message gets new ones).
 *
 * <p>Objects and envelopes, being messages, also carry what the calling thread's {@link #headers()} hold (the trace
 * context of the outbound adapter's send) after their arguments, where readers that do not ask for headers never
 * look; text and bytes carry nothing but themselves.
 *
 * <p>Thread-safe: each call uses the calling thread's appender, headers and envelope writer.
 */
public final class MessageExcerptWriter {
    private final String[] headerPatterns;
    private final boolean alwaysEnvelope;
    private final ThreadLocal<EnvelopeWriter> envelopeWriters = new ThreadLocal<>();
    private final ThreadLocal<TextHeaders> headers = ThreadLocal.withInitial(TextHeaders::new);

    /**
     * @param headerPatterns names of the headers to keep, with {@code *} wildcards ({@code "trace*"}, {@code "*"})
     * @param alwaysEnvelope write an envelope even without kept headers, so that a {@code String} or {@code byte[]}
     *                       payload reads back as itself with payload type {@code Object}
     */
    public MessageExcerptWriter(String[] headerPatterns, boolean alwaysEnvelope) {
        this.headerPatterns = headerPatterns.clone();
        this.alwaysEnvelope = alwaysEnvelope;
    }

    /** The header name patterns this writer keeps. */
    public String[] headerPatterns() {
        return headerPatterns.clone();
    }

    /** Appends the message with {@code appender} (the calling thread's) and returns the excerpt's index. */
    public long write(ExcerptAppender appender, Message<?> message) {
        Object payload = message.getPayload();
        Map<String, Object> kept = keptHeaders(message.getHeaders());
        if (kept.isEmpty() && !alwaysEnvelope) {
            return switch (payload) {
                case String text -> appender.writeText(text);
                case byte[] bytes -> appender.writeBytes(bytes);
                default -> Messages.writeObject(appender, payload, headers.get());
            };
        }
        envelopeWriter(appender).springMessage(payload, kept);
        return appender.lastIndexAppended();
    }

    /**
     * The calling thread's headers: the next object or envelope it writes carries the pairs they hold. Whoever fills
     * them clears them after the write.
     */
    public TextHeaders headers() {
        return headers.get();
    }

    private Map<String, Object> keptHeaders(MessageHeaders headers) {
        if (headerPatterns.length == 0) {
            return Map.of();
        }
        Map<String, Object> kept = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            if (!MessageHeaders.ID.equals(name) && !MessageHeaders.TIMESTAMP.equals(name)
                    && PatternMatchUtils.simpleMatch(headerPatterns, name)) {
                Object portable = portable(value);
                if (portable != null) {
                    kept.put(name, portable);
                }
            }
        });
        return kept;
    }

    private static Object portable(Object value) {
        return switch (value) {
            case String text -> text;
            case Number number -> number;
            case Boolean flag -> flag;
            case CharSequence text -> text.toString();
            case UUID uuid -> uuid.toString();
            case Enum<?> constant -> constant.name();
            case null, default -> null;
        };
    }

    /** Method writers belong to their appender's thread: one per thread, renewed if the appender changed. */
    private SpringMessageEnvelope envelopeWriter(ExcerptAppender appender) {
        EnvelopeWriter writer = envelopeWriters.get();
        if (writer == null || writer.appender != appender) {
            writer = new EnvelopeWriter(appender, Messages.methodWriterBuilder(appender, SpringMessageEnvelope.class)
                    .headers(headers.get()).build());
            envelopeWriters.set(writer);
        }
        return writer.envelope;
    }

    private record EnvelopeWriter(ExcerptAppender appender, SpringMessageEnvelope envelope) {
    }

    @Override
    public String toString() {
        return "MessageExcerptWriter" + Arrays.toString(headerPatterns);
    }
}
