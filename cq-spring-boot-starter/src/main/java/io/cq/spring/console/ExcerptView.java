package io.cq.spring.console;

import org.jspecify.annotations.Nullable;

import java.util.Map;

/**
 * One excerpt as the console's excerpt browser shows it: decoded as {@code cq tail} decodes it, cut to the display
 * limit. Every text here comes from the excerpt and is shown by the page as text, never as HTML.
 *
 * @param index      its index (-1 for the payload of a dead letter, which has the index of the failed excerpt)
 * @param indexHex   the same in hex, as {@code cq tail -s} shows it
 * @param cycle      the cycle it was written in
 * @param sequence   its sequence number within the cycle
 * @param length     its length in bytes
 * @param kind       {@code message}, {@code text}, {@code bytes}, {@code malformed} (a message that does not decode:
 *                   {@code error} says why), {@code dead-letter}, or {@code damaged} (cq could not read it:
 *                   {@code error} holds cq's error)
 * @param summary    one line, as {@code cq tail -l} prints it
 * @param json       the line {@code cq tail --format json} prints for it (raw bytes in base64 there)
 * @param text       for text, the text with its line breaks
 * @param hex        for raw bytes, their hex
 * @param headers    the headers a message carries (trace context, correlation id ...), by name
 * @param traceId    the trace id of its {@code traceparent} or {@code b3} header, if any
 * @param cut        whether something was cut to the display limit, or the excerpt was too long to decode here
 * @param error      what went wrong reading or decoding it, in cq's words
 * @param deadLetter for an excerpt of a dead-letter queue, the failed excerpt and the failure
 */
public record ExcerptView(long index, @Nullable String indexHex, long cycle, long sequence, long length, String kind,
                          @Nullable String summary, @Nullable String json, @Nullable String text,
                          @Nullable String hex, Map<String, String> headers, @Nullable String traceId, boolean cut,
                          @Nullable String error, @Nullable DeadLetterView deadLetter) {

    /**
     * A dead letter ({@link io.cq.spring.listener.DeadLetter}): where the failed excerpt came from, why it failed,
     * and the excerpt itself.
     *
     * @param queue            the queue the excerpt was read from
     * @param index            its index there
     * @param indexHex         the same in hex
     * @param listenerId       the listener that gave up on it
     * @param exceptionClass   the class of the last exception it threw
     * @param exceptionMessage that exception's message
     * @param payload          the failed excerpt, decoded
     */
    public record DeadLetterView(String queue, long index, @Nullable String indexHex, String listenerId,
                                 String exceptionClass, String exceptionMessage, ExcerptView payload) {
    }
}
