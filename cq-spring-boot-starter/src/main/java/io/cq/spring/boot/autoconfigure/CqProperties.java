package io.cq.spring.boot.autoconfigure;

import io.cq.spring.config.ListenerIdleStrategy;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Settings of the cq starter, under the prefix {@code cq}. The Javadoc of each property is the user
 * documentation: it becomes the configuration metadata and the reference table of {@code docs/spring-boot.md}.
 */
@ConfigurationProperties(prefix = "cq")
public class CqProperties {

    /**
     * Directory under which each queue gets its own directory, named after the queue, unless the queue sets
     * its own path.
     */
    private Path basePath = Path.of("./data/queues");

    /**
     * The queues to open at start-up, by name; each becomes a MappedQueue bean of that name. The settings of
     * one queue are listed under "cq.queues.<name>.*" below the table.
     */
    private Map<String, QueueProperties> queues = new LinkedHashMap<>();

    /** Defaults for every @QueueListener. */
    @NestedConfigurationProperty
    private final ListenerProperties listener = new ListenerProperties();

    public Path getBasePath() {
        return basePath;
    }

    public void setBasePath(Path basePath) {
        this.basePath = basePath;
    }

    public Map<String, QueueProperties> getQueues() {
        return queues;
    }

    public void setQueues(Map<String, QueueProperties> queues) {
        this.queues = queues;
    }

    public ListenerProperties getListener() {
        return listener;
    }

    /** The directory of a queue: its own path, or the base path joined with its name. */
    public Path pathOf(String queueName, QueueProperties queue) {
        return queue.getPath() != null ? queue.getPath() : basePath.resolve(queueName);
    }

    /** Defaults for the listener containers; an annotation attribute overrides its default. */
    public static class ListenerProperties {

        /** Whether listener containers start with the application context. */
        private boolean autoStartup = true;

        /** What a listener thread does when its queue has nothing new. */
        @NestedConfigurationProperty
        private final Idle idle = new Idle();

        /** Retries of an excerpt whose listener method throws. */
        @NestedConfigurationProperty
        private final Retry retry = new Retry();

        /**
         * What happens to an excerpt whose retries are exhausted: log-and-skip, stop-container (the listener stops on
         * it and is reported FAILED) or dead-letter (appended to dead-letter-queue, then skipped).
         */
        private RecovererKind recoverer = RecovererKind.LOG_AND_SKIP;

        /**
         * The configured queue (a key of cq.queues) that receives excerpts whose retries are exhausted, when the
         * recoverer is dead-letter.
         */
        private @Nullable String deadLetterQueue;

        /**
         * Publish a ListenerIdleEvent when a listener received nothing for this long, and again after each such
         * period; unset publishes none.
         */
        private @Nullable Duration idleEventInterval;

        /** How long stopping a container waits for its thread to finish the excerpt in hand. */
        private Duration shutdownTimeout = Duration.ofSeconds(10);

        public boolean isAutoStartup() {
            return autoStartup;
        }

        public void setAutoStartup(boolean autoStartup) {
            this.autoStartup = autoStartup;
        }

        public Idle getIdle() {
            return idle;
        }

        public Retry getRetry() {
            return retry;
        }

        public RecovererKind getRecoverer() {
            return recoverer;
        }

        public void setRecoverer(RecovererKind recoverer) {
            this.recoverer = recoverer;
        }

        public @Nullable String getDeadLetterQueue() {
            return deadLetterQueue;
        }

        public void setDeadLetterQueue(@Nullable String deadLetterQueue) {
            this.deadLetterQueue = deadLetterQueue;
        }

        public @Nullable Duration getIdleEventInterval() {
            return idleEventInterval;
        }

        public void setIdleEventInterval(@Nullable Duration idleEventInterval) {
            this.idleEventInterval = idleEventInterval;
        }

        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
        }
    }

    /** The idle strategy of listener threads and its parameters. */
    public static class Idle {

        /**
         * The strategy: backoff (spin, yield, then park up to max-park), sleeping (park max-park each time),
         * yielding, or busy-spin (a whole core per listener).
         */
        private ListenerIdleStrategy strategy = ListenerIdleStrategy.BACKOFF;

        /** Spins of the backoff strategy before it starts yielding. */
        private int maxSpins = 100;

        /** Yields of the backoff strategy before it starts parking. */
        private int maxYields = 20;

        /** First park period of the backoff strategy; it doubles up to max-park. */
        private Duration minPark = Duration.ofNanos(1_000);

        /** Longest park of the backoff strategy, and the period of the sleeping one. */
        private Duration maxPark = Duration.ofMillis(1);

        public ListenerIdleStrategy getStrategy() {
            return strategy;
        }

        public void setStrategy(ListenerIdleStrategy strategy) {
            this.strategy = strategy;
        }

        public int getMaxSpins() {
            return maxSpins;
        }

        public void setMaxSpins(int maxSpins) {
            this.maxSpins = maxSpins;
        }

        public int getMaxYields() {
            return maxYields;
        }

        public void setMaxYields(int maxYields) {
            this.maxYields = maxYields;
        }

        public Duration getMinPark() {
            return minPark;
        }

        public void setMinPark(Duration minPark) {
            this.minPark = minPark;
        }

        public Duration getMaxPark() {
            return maxPark;
        }

        public void setMaxPark(Duration maxPark) {
            this.maxPark = maxPark;
        }
    }

    /** Retries of a failing excerpt before the recoverer decides. */
    public static class Retry {

        /** Calls of the listener method per excerpt before the recoverer takes over; 1 means no retry. */
        private int maxAttempts = 3;

        /** Pause before the first retry. */
        private Duration interval = Duration.ofMillis(100);

        /** Factor by which the pause grows after each retry (1 keeps it fixed). */
        private double multiplier = 2.0;

        /** Longest pause between two retries. */
        private Duration maxInterval = Duration.ofSeconds(10);

        public int getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public double getMultiplier() {
            return multiplier;
        }

        public void setMultiplier(double multiplier) {
            this.multiplier = multiplier;
        }

        public Duration getMaxInterval() {
            return maxInterval;
        }

        public void setMaxInterval(Duration maxInterval) {
            this.maxInterval = maxInterval;
        }
    }

    /** The recoverers that {@code cq.listener.recoverer} chooses from. */
    public enum RecovererKind {
        /** Log the failure with the excerpt's index and go on with the next excerpt. */
        LOG_AND_SKIP,
        /** Stop the listener's container, leaving it on the failed excerpt; it is reported FAILED. */
        STOP_CONTAINER,
        /** Append the excerpt and the failure to cq.listener.dead-letter-queue, then go on. */
        DEAD_LETTER
    }
}
