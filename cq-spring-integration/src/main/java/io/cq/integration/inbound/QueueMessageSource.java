package io.cq.integration.inbound;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.integration.AdapterCounts;
import io.cq.integration.NamedTailers;
import io.cq.integration.QueueAdapter;
import io.cq.integration.mapping.ExcerptConversionException;
import io.cq.integration.mapping.ExcerptMessageConverter;
import org.springframework.context.Lifecycle;
import org.springframework.integration.IntegrationMessageHeaderAccessor;
import org.springframework.integration.acks.AcknowledgmentCallback;
import org.springframework.integration.endpoint.AbstractMessageSource;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;


/**
 * A message source for polled flows: each {@code receive()} returns the next excerpt of the queue (or null),
 * read with a named tailer named after the source's id, with an {@link AcknowledgmentCallback} header.
 *
 * <p>The tailer moves past an excerpt only when its message is acknowledged: {@code ACCEPT} (the poller does
 * it when the flow returns) and {@code REJECT} (when the flow throws, as Spring Integration's pollers do) move
 * on; {@code REQUEUE}, or no acknowledgment at all, leaves the excerpt to be received again. A crash before the
 * acknowledgment therefore delivers the excerpt again: at least once. An excerpt that cannot be converted is
 * skipped, counted as failed, and its {@link ExcerptConversionException} thrown from {@code receive()} (the
 * poller's error handler sees it). Thread-safe: receives and acknowledgments are serialised.
 */
public final class QueueMessageSource extends AbstractMessageSource<Object> implements QueueAdapter, Lifecycle {
    private final MappedQueue queue;
    private ExcerptMessageConverter converter;
    private StartPosition startPosition = StartPosition.resumeOrStart();
    private final AdapterCounts counts = new AdapterCounts();
    private ExcerptTailer tailer;
    private volatile boolean running;
    private String adapterId;

    /** A source reading {@code queue} as {@code String} messages until told otherwise. */
    public QueueMessageSource(MappedQueue queue) {
        this.queue = queue;
        this.converter = new ExcerptMessageConverter(queue, String.class);
    }

    /**
     * The payload type of the messages: {@code String} (the default), {@code byte[]}, or a type written with
     * {@code writeObject} (docs/spring-integration.md, "Payloads and headers"). Set before starting.
     */
    public void setPayloadType(Class<?> payloadType) {
        this.converter = new ExcerptMessageConverter(queue, payloadType);
    }

    /** Where to start reading (default: resume, or the start of the queue the first time). */
    public void setStartPosition(StartPosition startPosition) {
        this.startPosition = startPosition;
    }

    /**
     * The id under which monitoring lists this source and names its tailer (default: its bean name, which the DSL
     * derives from the endpoint's id, e.g. {@code orders.source}).
     */
    public void setAdapterId(String adapterId) {
        this.adapterId = adapterId;
    }

    @Override
    public String getComponentType() {
        return "cq:message-source";
    }

    @Override
    protected synchronized Object doReceive() {
        ExcerptTailer reader = tailer();
        try (ReadContext context = reader.readingDocument()) {
            if (!context.isPresent()) {
                return null;
            }
            Message<?> message;
            try {
                message = converter.toMessage(context);
            } catch (ExcerptConversionException e) {
                counts.countFailed();
                throw e;
            }
            context.rollbackOnClose();
            return MessageBuilder.fromMessage(message)
                    .setHeader(IntegrationMessageHeaderAccessor.ACKNOWLEDGMENT_CALLBACK,
                    new ExcerptAcknowledgment(context.index()))
                    .build();
        }
    }

    private ExcerptTailer tailer() {
        if (tailer == null) {
            ExcerptTailer created = queue.createTailer(NamedTailers.requireValidName(queue, adapterId(),
                    "cq message source"));
            try {
                NamedTailers.moveToStart(created, startPosition);
            } catch (RuntimeException e) {
                created.close();
                throw e;
            }
            tailer = created;
        }
        return tailer;
    }

    /** Moves past the excerpt if the tailer is still on it (a late or second acknowledgment does nothing). */
    private synchronized void commit(long index) {
        if (tailer == null) {
            return;
        }
        try (ReadContext context = tailer.readingDocument()) {
            if (context.isPresent() && context.index() != index) {
                context.rollbackOnClose();
            }
        }
    }

    /**
     * Started with its polling endpoint: checks the tailer name, so that a missing id fails the start rather than
     * every poll; the tailer itself is claimed on the first receive, on the poller's thread.
     */
    @Override
    public void start() {
        NamedTailers.requireValidName(queue, adapterId(), "cq message source");
        running = true;
    }

    /** Releases the tailer's name; a later receive claims it again and resumes. */
    @Override
    public synchronized void stop() {
        running = false;
        if (tailer != null) {
            tailer.close();
            tailer = null;
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public void destroy() {
        stop();
        super.destroy();
    }

    @Override
    public String adapterId() {
        return adapterId != null ? adapterId : getComponentName();
    }

    @Override
    public Kind kind() {
        return Kind.MESSAGE_SOURCE;
    }

    @Override
    public MappedQueue queue() {
        return queue;
    }

    @Override
    public State state() {
        return isRunning() ? State.RUNNING : State.STOPPED;
    }

    @Override
    public AdapterCounts counts() {
        return counts;
    }

    private final class ExcerptAcknowledgment implements AcknowledgmentCallback {
        private final long index;
        private volatile boolean acknowledged;

        ExcerptAcknowledgment(long index) {
            this.index = index;
        }

        @Override
        public void acknowledge(Status status) {
            acknowledged = true;
            switch (status) {
                case ACCEPT -> {
                    commit(index);
                    counts.countProcessed();
                }
                case REJECT -> {
                    commit(index);
                    counts.countFailed();
                }
                case REQUEUE -> counts.countFailed();
            }
        }

        @Override
        public boolean isAcknowledged() {
            return acknowledged;
        }
    }
}
