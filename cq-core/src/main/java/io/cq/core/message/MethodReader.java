package io.cq.core.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.ReadContext;

/**
 * Turns message excerpts back into calls on handlers. Built by
 * {@link Messages#methodReader(ExcerptTailer, Object...)} or {@link Messages#methodReaderBuilder(ExcerptTailer)}; it
 * reads through its tailer and, like the tailer, belongs to one thread at a time.
 *
 * <p>What happens to the excerpt when something fails:
 * <ul>
 *   <li>a method no handler implements: skipped and counted ({@link #unknownMethodsSkipped()});</li>
 *   <li>an excerpt that is not a message (raw bytes or text): skipped and counted
 *       ({@link #otherExcerptsSkipped()});</li>
 *   <li>an excerpt that cannot be decoded (malformed, a refused type, a {@link BytesMessage#readFrom} that
 *       throws): consumed, then {@link MessageDecodingException};</li>
 *   <li>a handler throws: the read is rolled back, so the same excerpt is read again by the next
 *       {@link #readOne()} (at-least-once delivery: with several handlers for one method, those that ran before
 *       the failing one see the message again), and the exception propagates unchanged.</li>
 * </ul>
 */
public interface MethodReader {
    /**
     * Reads the next excerpt, if there is one, and calls the handlers' method it names.
     *
     * @return true when an excerpt was read (dispatched or skipped), false when there was none yet
     */
    boolean readOne();

    /**
     * Decodes and dispatches the excerpt of a read context that the caller opened and will close, for callers
     * that own the reading loop (a listener container that commits only after the call returns). Nothing is
     * rolled back or committed here, and a handler's exception propagates unchanged.
     *
     * @return true when handlers were called, false when the excerpt was skipped (not a message, or a method no
     *         handler has; counted as by {@link #readOne()})
     * @throws MessageDecodingException when the message does not decode
     */
    boolean dispatch(ReadContext context);

    /** Messages dispatched to at least one handler. */
    long messagesRead();

    /** Message excerpts skipped because no handler has the method they name. */
    long unknownMethodsSkipped();

    /** Excerpts skipped because they are not messages (written as raw bytes, text or documents). */
    long otherExcerptsSkipped();

    /** The tailer this reader reads through, or null for a reader built only to {@link #dispatch} contexts. */
    ExcerptTailer tailer();
}
