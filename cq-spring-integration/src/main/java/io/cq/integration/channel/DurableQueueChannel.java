package io.cq.integration.channel;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.idle.IdleStrategy;
import io.cq.integration.AdapterCounts;
import io.cq.integration.NamedTailers;
import io.cq.integration.QueueAdapter;
import io.cq.integration.mapping.ExcerptConversionException;
import io.cq.integration.mapping.ExcerptMessageConverter;
import io.cq.integration.mapping.MessageExcerptWriter;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.integration.channel.AbstractPollableChannel;
import org.springframework.messaging.Message;

import java.util.concurrent.TimeUnit;

/**
 * A {@code PollableChannel} like {@code QueueChannel}, whose messages live in a cq queue instead of memory: a
 * message sent and not yet received survives a restart (even {@code kill -9}) without a database, and is
 * received once. Receiving is a named tailer (named after the channel's bean name, or the name given) that
 * commits as it hands each message out, so a message received is not received again, even if its handler then
 * fails: the handler's retry or error flow takes over, as with any {@code QueueChannel}.
 *
 * <p>Each message is one envelope excerpt with its payload and every header whose value is text, a number or
 * a boolean (channels and other objects stay behind; {@code id} and {@code timestamp} are new on receipt).
 * Payloads other than {@code String} and {@code byte[]} come back as the channel's payload type ({@code Object}
 * gives maps and lists for records). Sends never block: the queue has no capacity limit but the disk.
 * Receives from several pollers are serialised. Thread-safe.
 */
public final class DurableQueueChannel extends AbstractPollableChannel implements QueueAdapter, DisposableBean {
    private static final long PARK_LIMIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final MappedQueue queue;
    private ExcerptMessageConverter converter;
    private final MessageExcerptWriter writer = new MessageExcerptWriter(new String[] {"*"}, true);
    private final AdapterCounts counts = new AdapterCounts();
    private String consumerName;
    private ExcerptTailer tailer;
    private volatile boolean closed;

    /**
     * A channel over {@code queue}; receivers read with a named tailer named after the channel's bean name
     * (or {@link #setConsumerName(String)}), payloads come back as {@code Object} (or
     * {@link #setPayloadType(Class)}).
     */
    public DurableQueueChannel(MappedQueue queue) {
        this.queue = queue;
        this.converter = new ExcerptMessageConverter(queue, Object.class);
    }

    /** The name of the named tailer that receives (default: the bean name). Set before use. */
    public void setConsumerName(String consumerName) {
        this.consumerName = consumerName;
    }

    /** The type payloads come back as, apart from {@code String} and {@code byte[]} (default {@code Object}). */
    public void setPayloadType(Class<?> payloadType) {
        this.converter = new ExcerptMessageConverter(queue, payloadType);
    }

    @Override
    public String getComponentType() {
        return "cq:durable-channel";
    }

    @Override
    protected void onInit() {
        super.onInit();
        if (consumerName == null) {
            consumerName = getComponentName();
        }
        NamedTailers.requireValidName(queue, consumerName, "cq durable channel");
    }

    @Override
    protected boolean doSend(Message<?> message, long timeout) {
        writer.write(queue.acquireAppender(), message);
        return true;
    }

    /** Waits up to {@code timeout} ms (forever when negative) for a message; null when none came. */
    @Override
    protected synchronized Message<?> doReceive(long timeout) {
        long deadline = timeout < 0 ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        IdleStrategy idle = IdleStrategy.backoff();
        while (!closed) {
            Message<?> message = receiveNow();
            if (message != null) {
                counts.countProcessed();
                return message;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || Thread.currentThread().isInterrupted()) {
                return null;
            }
            if (left < PARK_LIMIT_NANOS) {
                Thread.onSpinWait();
            } else {
                idle.idle();
            }
        }
        return null;
    }

    /** One attempt; an excerpt that does not convert is skipped and counted (it would never convert). */
    private Message<?> receiveNow() {
        ExcerptTailer reader = tailer();
        while (true) {
            try (ReadContext context = reader.readingDocument()) {
                if (!context.isPresent()) {
                    return null;
                }
                try {
                    return converter.toMessage(context);
                } catch (ExcerptConversionException e) {
                    counts.countFailed();
                    logger.error(e, () -> "cq durable channel '" + adapterId() + "' skipped an excerpt: "
                            + e.getMessage());
                }
            }
        }
    }

    private ExcerptTailer tailer() {
        if (tailer == null) {
            tailer = queue.createTailer(NamedTailers.requireValidName(queue, adapterId(), "cq durable channel"));
        }
        return tailer;
    }

    /** Messages sent and not yet received. */
    public long size() {
        return lag();
    }

    /** Releases the named tailer; the messages stay in the queue for the next channel on it. */
    @Override
    public void destroy() {
        closed = true;
        synchronized (this) {
            if (tailer != null) {
                tailer.close();
                tailer = null;
            }
        }
    }

    @Override
    public String adapterId() {
        return consumerName != null ? consumerName : getComponentName();
    }

    @Override
    public Kind kind() {
        return Kind.DURABLE_CHANNEL;
    }

    @Override
    public MappedQueue queue() {
        return queue;
    }

    @Override
    public State state() {
        return closed || queue.isClosed() ? State.STOPPED : State.RUNNING;
    }

    @Override
    public AdapterCounts counts() {
        return counts;
    }
}
