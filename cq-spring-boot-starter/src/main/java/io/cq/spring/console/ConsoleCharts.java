package io.cq.spring.console;

import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * The figures behind the console's charts: the processed and failed rates and the lag of each listener and Spring
 * Integration adapter over the last minutes, as read from the Micrometer meters the starter registers
 * ({@link MeterHistory}). Without Micrometer there are none ({@link #NONE}).
 */
public interface ConsoleCharts {
    /** No charts: the application has no {@code MeterRegistry}. */
    ConsoleCharts NONE = new ConsoleCharts() {
        @Override
        public List<Series> series() {
            return List.of();
        }

        @Override
        public @Nullable String unavailable() {
            return "no charts: the application has no Micrometer MeterRegistry "
                    + "(spring-boot-starter-actuator brings one)";
        }
    };

    /** Every listener's and adapter's series, oldest sample first. */
    List<Series> series();

    /** Why there are no charts, or null when there are. */
    @Nullable String unavailable();

    /**
     * The samples of one listener or adapter. Rates are per second between a sample and the one before it; a value is
     * null where the meter was not there.
     *
     * @param kind                {@code listener} or {@code adapter}
     * @param id                  its id
     * @param queue               its queue's name (the {@code queue} tag)
     * @param times               when each sample was taken, in epoch milliseconds
     * @param processedPerSecond  excerpts (messages) processed per second
     * @param failedPerSecond     excerpts given up on (failed messages) per second
     * @param lag                 excerpts not processed yet
     */
    record Series(String kind, String id, String queue, List<Long> times, List<@Nullable Double> processedPerSecond,
                  List<@Nullable Double> failedPerSecond, List<@Nullable Double> lag) {
    }
}
