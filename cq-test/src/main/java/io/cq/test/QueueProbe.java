package io.cq.test;

import io.cq.core.ExcerptBytes;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Reads what a queue holds, from its first excerpt, and waits for excerpts to arrive, on Awaitility:
 *
 * <pre>{@code
 * QueueProbe orders = QueueProbe.of(queue);
 * List<String> texts = orders.texts();                                  // what it holds now
 * List<Order> first = orders.awaitObjects(Order.class, 2);             // waits for two, decodes them
 * Order o1 = orders.awaitObject(Order.class, order -> order.id().equals("o-1"));
 * }</pre>
 *
 * <p>Every call reads with an unnamed tailer of its own, created on the calling thread and closed before it
 * returns: it never moves a named tailer, so a {@code @QueueListener} or an adapter reading the same queue goes on
 * as if the probe were not there. Objects are decoded by cq's message layer, as a listener decodes them
 * ({@code Messages.readObject}).
 *
 * <p>An await polls every {@link #pollInterval(Duration) poll interval}, on the calling thread, for at most
 * {@link #atMost(Duration) its timeout}, and then fails with an {@link AssertionError} that says what it waited for
 * and what the queue holds: the number of excerpts and the last few, summarised as {@link QueueExcerpt#toString()}
 * shows them.
 *
 * <p>Immutable and thread-safe; {@code atMost} and {@code pollInterval} return a new probe.
 */
public final class QueueProbe {
    /** How long an await waits unless {@link #atMost(Duration)} says otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** How often an await reads what was appended, unless {@link #pollInterval(Duration)} says otherwise. */
    public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(20);

    private final MappedQueue queue;
    private final Duration timeout;
    private final Duration pollInterval;

    private QueueProbe(MappedQueue queue, Duration timeout, Duration pollInterval) {
        this.queue = queue;
        this.timeout = timeout;
        this.pollInterval = pollInterval;
    }

    /** A probe of the queue, with the default timeout and poll interval. */
    public static QueueProbe of(MappedQueue queue) {
        return new QueueProbe(Objects.requireNonNull(queue, "queue"), DEFAULT_TIMEOUT, DEFAULT_POLL_INTERVAL);
    }

    /** This probe with another timeout for its awaits. */
    public QueueProbe atMost(Duration timeout) {
        return new QueueProbe(queue, requirePositive("timeout", timeout), pollInterval);
    }

    /** This probe reading every {@code interval} while it waits. */
    public QueueProbe pollInterval(Duration interval) {
        return new QueueProbe(queue, timeout, requirePositive("pollInterval", interval));
    }

    /** The queue this probe reads. */
    public MappedQueue queue() {
        return queue;
    }

    // What the queue holds now

    /** Every excerpt the queue holds now, in order. */
    public List<QueueExcerpt> excerpts() {
        return readNow(ProbeReading.Decoder.identity());
    }

    /** Every excerpt's bytes as UTF-8 text ({@link QueueExcerpt#text()}), in order. */
    public List<String> texts() {
        return readNow((excerpt, context) -> excerpt.text());
    }

    /** A copy of every excerpt's bytes, in order. */
    public List<byte[]> bytes() {
        return readNow((excerpt, context) -> excerpt.bytes());
    }

    /**
     * Every excerpt decoded as a {@code type}, in order: the object of a message, as a {@code @QueueListener}
     * parameter of that type receives it ({@link QueueExcerpt#as(Class)}).
     *
     * @throws AssertionError when an excerpt does not decode as a {@code type}, naming it
     */
    public <T> List<T> objects(Class<T> type) {
        return readNow(strictly(type));
    }

    /**
     * What {@code reader} makes of each excerpt's bytes, in order, for excerpts laid out by hand:
     * {@code probe.read(bytes -> bytes.readUtf8())}. Each call starts at the excerpt's first byte.
     */
    public <T> List<T> read(Function<? super ExcerptBytes, ? extends T> reader) {
        return readNow((excerpt, context) -> reader.apply(context.bytes()));
    }

    // Waiting

    /**
     * Waits until the queue holds at least {@code count} excerpts and returns the first {@code count} (more may
     * follow: {@link #excerpts()} reads them all).
     *
     * @throws AssertionError when fewer arrive in time
     */
    public List<QueueExcerpt> awaitExcerpts(int count) {
        return awaitCount(count, "excerpt", ProbeReading.Decoder.identity());
    }

    /** As {@link #awaitExcerpts(int)}, returning the texts of the first {@code count} excerpts. */
    public List<String> awaitTexts(int count) {
        return awaitCount(count, "excerpt", (excerpt, context) -> excerpt.text());
    }

    /**
     * As {@link #awaitExcerpts(int)}, returning the first {@code count} excerpts decoded as {@code type}.
     *
     * @throws AssertionError at once when one of them does not decode as a {@code type}, naming it
     */
    public <T> List<T> awaitObjects(Class<T> type, int count) {
        return awaitCount(count, type.getSimpleName() + " message", strictly(type));
    }

    /**
     * Waits until an excerpt that {@code condition} accepts appears, and returns the first.
     *
     * @throws AssertionError when none does in time
     */
    public QueueExcerpt awaitExcerpt(Predicate<? super QueueExcerpt> condition) {
        Objects.requireNonNull(condition, "condition");
        return awaitMatch("an excerpt that matches the condition", ProbeReading.Decoder.identity(), condition, null);
    }

    /** Waits until an excerpt whose text {@code condition} accepts appears, and returns its text. */
    public String awaitText(Predicate<? super String> condition) {
        Objects.requireNonNull(condition, "condition");
        return awaitMatch("an excerpt whose text matches the condition", (excerpt, context) -> excerpt.text(),
                condition, null);
    }

    /**
     * Waits until an excerpt decodes as a {@code type} that {@code condition} accepts, and returns that object.
     * Excerpts that do not decode as a {@code type} (other messages, text) are passed over; a timeout says how many
     * there were and why the last one did not decode.
     */
    public <T> T awaitObject(Class<T> type, Predicate<? super T> condition) {
        Objects.requireNonNull(condition, "condition");
        Skipped skipped = new Skipped(type);
        T found = awaitMatch("an object of type " + type.getName() + " that matches the condition",
                (excerpt, context) -> skipped.decode(type, context), condition, skipped);
        return Objects.requireNonNull(found);
    }

    private <T> List<T> readNow(ProbeReading.Decoder<T> decoder) {
        try (ProbeReading<T> reading = new ProbeReading<>(queue, decoder)) {
            // not List.copyOf: a reader may map an excerpt to null
            return Collections.unmodifiableList(new ArrayList<>(reading.catchUp().values()));
        }
    }

    private <T> List<T> awaitCount(int count, String what, ProbeReading.Decoder<T> decoder) {
        if (count < 1) {
            throw new IllegalArgumentException("count=" + count + " must be at least 1");
        }
        String expected = count + " " + what + (count == 1 ? "" : "s");
        return await(decoder, expected, null,
                reading -> reading.count() >= count
                        ? Optional.of(Collections.unmodifiableList(new ArrayList<>(reading.values().subList(0, count))))
                        : Optional.empty());
    }

    private <T extends @Nullable Object> T awaitMatch(String expected, ProbeReading.Decoder<T> decoder,
                                                     Predicate<? super T> condition, @Nullable Skipped skipped) {
        int[] tested = {0};
        return await(decoder, expected, skipped, reading -> {
            List<T> values = reading.values();
            for (; tested[0] < values.size(); tested[0]++) {
                T value = values.get(tested[0]);
                if (value != null && condition.test(value)) {
                    return Optional.of(value);
                }
            }
            return Optional.empty();
        });
    }

    /**
     * The one await loop: reads on at each poll, on the calling thread (the tailer's), until {@code outcome} has a
     * result.
     */
    private <T extends @Nullable Object, R> R await(ProbeReading.Decoder<T> decoder, String expected,
                                                   @Nullable Skipped skipped,
                                                   Function<ProbeReading<T>, Optional<R>> outcome) {
        try (ProbeReading<T> reading = new ProbeReading<>(queue, decoder)) {
            try {
                return Awaitility.await()
                        .atMost(timeout)
                        .pollDelay(Duration.ZERO)
                        .pollInterval(pollInterval)
                        .pollInSameThread()
                        .until(() -> outcome.apply(reading.catchUp()), Optional::isPresent)
                        .orElseThrow();
            } catch (ConditionTimeoutException timedOut) {
                throw new AssertionError(reading.timedOut(expected, timeout,
                        skipped == null ? null : skipped.describe()));
            }
        }
    }

    /** Decodes as the message layer does, and fails the read at once, naming the excerpt, when that fails. */
    private <T> ProbeReading.Decoder<T> strictly(Class<T> type) {
        Objects.requireNonNull(type, "type");
        return (excerpt, context) -> {
            try {
                return Messages.readObject(context, type);
            } catch (MessageDecodingException e) {
                throw new AssertionError("The excerpt " + excerpt + " of the queue " + queue.path()
                        + " does not decode as " + type.getName() + ": " + e.getMessage(), e);
            }
        };
    }

    /** Counts the excerpts an {@link #awaitObject} passed over, and keeps why the last one did not decode. */
    private static final class Skipped {
        private final Class<?> type;
        private int count;
        private @Nullable String last;

        Skipped(Class<?> type) {
            this.type = type;
        }

        <T> @Nullable T decode(Class<T> as, ReadContext context) {
            try {
                return Messages.readObject(context, as);
            } catch (MessageDecodingException e) {
                count++;
                last = e.getMessage();
                return null;
            }
        }

        @Nullable String describe() {
            return count == 0 ? null : count + (count == 1 ? " excerpt does" : " excerpts do") + " not decode as "
                    + type.getName() + "; the last because: " + last;
        }
    }

    private static Duration requirePositive(String name, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + "=" + duration + " must be positive");
        }
        return duration;
    }

    @Override
    public String toString() {
        return "QueueProbe[" + queue.path() + ", atMost " + timeout + ", every " + pollInterval + "]";
    }
}
