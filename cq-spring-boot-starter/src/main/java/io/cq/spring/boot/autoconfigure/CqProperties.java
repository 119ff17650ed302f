package io.cq.spring.boot.autoconfigure;

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

        /**
         * What a listener thread does when its queue has nothing new: "backoff" (spin, yield, then park up to
         * idle-max-park), "sleeping" (park idle-max-park each time), "yielding" or "busy-spin" (a whole core
         * per listener).
         */
        private String idleStrategy = "backoff";

        /** Spins of the backoff idle strategy before it starts yielding. */
        private int idleMaxSpins = 100;

        /** Yields of the backoff idle strategy before it starts parking. */
        private int idleMaxYields = 20;

        /** First park period of the backoff idle strategy; it doubles up to idle-max-park. */
        private Duration idleMinPark = Duration.ofNanos(1_000);

        /** Longest park of the backoff idle strategy, and the period of the sleeping one. */
        private Duration idleMaxPark = Duration.ofMillis(1);

        /** Calls of the listener method per excerpt before the recoverer takes over; 1 means no retry. */
        private int maxAttempts = 3;

        /** Pause before the first retry. */
        private Duration retryInterval = Duration.ofMillis(100);

        /** Factor by which the pause grows after each retry (1 keeps it fixed). */
        private double retryMultiplier = 2.0;

        /** Longest pause between two retries. */
        private Duration retryMaxInterval = Duration.ofSeconds(10);

        /**
         * What happens to an excerpt whose retries are exhausted: log-and-skip, stop-container (the listener stops on
         * it and is reported FAILED) or dead-letter (appended to dead-letter-queue, then skipped).
         */
        private RecovererKind recoverer = RecovererKind.LOG_AND_SKIP;

        /**
         * The configured queue (a key of cq.queues) that receives excerpts whose retries are exhausted, when the
         * recoverer is dead-letter.
         */
        private String deadLetterQueue;

        /**
         * Publish a ListenerIdleEvent when a listener received nothing for this long, and again after each such
         * period; unset publishes none.
         */
        private Duration idleEventInterval;

        /** How long stopping a container waits for its thread to finish the excerpt in hand. */
        private Duration shutdownTimeout = Duration.ofSeconds(10);

        public boolean isAutoStartup() {
            return autoStartup;
        }

        public void setAutoStartup(boolean autoStartup) {
            this.autoStartup = autoStartup;
        }

        public String getIdleStrategy() {
            return idleStrategy;
        }

        public void setIdleStrategy(String idleStrategy) {
            this.idleStrategy = idleStrategy;
        }

        public int getIdleMaxSpins() {
            return idleMaxSpins;
        }

        public void setIdleMaxSpins(int idleMaxSpins) {
            this.idleMaxSpins = idleMaxSpins;
        }

        public int getIdleMaxYields() {
            return idleMaxYields;
        }

        public void setIdleMaxYields(int idleMaxYields) {
            this.idleMaxYields = idleMaxYields;
        }

        public Duration getIdleMinPark() {
            return idleMinPark;
        }

        public void setIdleMinPark(Duration idleMinPark) {
            this.idleMinPark = idleMinPark;
        }

        public Duration getIdleMaxPark() {
            return idleMaxPark;
        }

        public void setIdleMaxPark(Duration idleMaxPark) {
            this.idleMaxPark = idleMaxPark;
        }

        public int getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public Duration getRetryInterval() {
            return retryInterval;
        }

        public void setRetryInterval(Duration retryInterval) {
            this.retryInterval = retryInterval;
        }

        public double getRetryMultiplier() {
            return retryMultiplier;
        }

        public void setRetryMultiplier(double retryMultiplier) {
            this.retryMultiplier = retryMultiplier;
        }

        public Duration getRetryMaxInterval() {
            return retryMaxInterval;
        }

        public void setRetryMaxInterval(Duration retryMaxInterval) {
            this.retryMaxInterval = retryMaxInterval;
        }

        public RecovererKind getRecoverer() {
            return recoverer;
        }

        public void setRecoverer(RecovererKind recoverer) {
            this.recoverer = recoverer;
        }

        public String getDeadLetterQueue() {
            return deadLetterQueue;
        }

        public void setDeadLetterQueue(String deadLetterQueue) {
            this.deadLetterQueue = deadLetterQueue;
        }

        public Duration getIdleEventInterval() {
            return idleEventInterval;
        }

        public void setIdleEventInterval(Duration idleEventInterval) {
            this.idleEventInterval = idleEventInterval;
        }

        public Duration getShutdownTimeout() {
            return shutdownTimeout;
        }

        public void setShutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
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
