package io.cq.spring.console;

import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads the starter's listener and adapter meters ({@code cq.listener.processed}, {@code .failed}, {@code .lag}
 * and the {@code cq.adapter.*} ones) {@value #SAMPLES} times per chart window, on a thread of its own, and keeps the
 * samples for the console's charts. It adds nothing to the path of an excerpt: the meters are function meters over
 * counters the containers keep anyway, and reading them here is what any scrape does. Thread-safe.
 */
public final class MeterHistory implements ConsoleCharts, SmartLifecycle {
    /** Samples kept per series: a chart's points. */
    static final int SAMPLES = 120;
    private static final String[] KINDS = {"listener", "adapter"};
    private static final Log log = LogFactory.getLog(MeterHistory.class);

    private final MeterRegistry registry;
    private final Duration interval;
    /** By kind and id; guarded by this. */
    private final Map<String, Track> tracks = new LinkedHashMap<>();
    private @Nullable ScheduledExecutorService sampler;

    /** @param window how far back the charts go */
    public MeterHistory(MeterRegistry registry, Duration window) {
        if (window.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("cq.console.chart-window=" + window + " must be at least 1m");
        }
        this.registry = registry;
        this.interval = window.dividedBy(SAMPLES);
    }

    /** Reads every meter once; the sampler's thread calls it, tests may too. */
    synchronized void sample(long now) {
        for (String kind : KINDS) {
            read(kind, "processed", now);
            read(kind, "failed", now);
            read(kind, "lag", now);
        }
        tracks.values().forEach(track -> track.close(now));
    }

    private void read(String kind, String figure, long now) {
        for (Meter meter : registry.find("cq." + kind + "." + figure).meters()) {
            String id = meter.getId().getTag(kind);
            if (id == null) {
                continue;
            }
            String queue = String.valueOf(meter.getId().getTag("queue"));
            Track track = tracks.computeIfAbsent(kind + ":" + id, key -> new Track(kind, id, queue));
            track.set(now, figure, valueOf(meter));
        }
    }

    private static double valueOf(Meter meter) {
        for (Measurement measurement : meter.measure()) {
            return measurement.getValue();
        }
        return Double.NaN;
    }

    @Override
    public synchronized List<Series> series() {
        List<Series> all = new ArrayList<>(tracks.size());
        tracks.values().forEach(track -> all.add(track.series()));
        return all;
    }

    @Override
    public @Nullable String unavailable() {
        return null;
    }

    /** How often the meters are read. */
    public Duration interval() {
        return interval;
    }

    @Override
    public synchronized void start() {
        if (sampler != null) {
            return;
        }
        sampler = Executors.newSingleThreadScheduledExecutor(work -> {
            Thread thread = new Thread(work, "cq-console-meters");
            thread.setDaemon(true);
            return thread;
        });
        sampler.scheduleAtFixedRate(this::sampleNow, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sampleNow() {
        try {
            sample(System.currentTimeMillis());
        } catch (RuntimeException e) {
            // a meter that fails to read must not end the schedule: the next sample tries again
            log.debug("Reading the cq meters for the console failed", e);
        }
    }

    @Override
    public synchronized void stop() {
        if (sampler != null) {
            sampler.shutdownNow();
            sampler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return sampler != null;
    }

    /** The samples of one listener or adapter: a ring of the last {@value #SAMPLES}. */
    private static final class Track {
        private final String kind;
        private final String id;
        private final String queue;
        private final long[] times = new long[SAMPLES];
        private final double[] processed = new double[SAMPLES];
        private final double[] failed = new double[SAMPLES];
        private final double[] lag = new double[SAMPLES];
        private int count;
        private int next;
        private long open = -1;

        Track(String kind, String id, String queue) {
            this.kind = kind;
            this.id = id;
            this.queue = queue;
        }

        /** Sets a figure of the sample taken at {@code now}, starting that sample if it is the first. */
        void set(long now, String figure, double value) {
            if (open != now) {
                open = now;
                times[next] = now;
                processed[next] = Double.NaN;
                failed[next] = Double.NaN;
                lag[next] = Double.NaN;
                next = (next + 1) % SAMPLES;
                count = Math.min(count + 1, SAMPLES);
            }
            int at = (next + SAMPLES - 1) % SAMPLES;
            switch (figure) {
                case "processed" -> processed[at] = value;
                case "failed" -> failed[at] = value;
                default -> lag[at] = value;
            }
        }

        /** A track whose meters were not there at {@code now} gets a sample of gaps, so time goes on in its chart. */
        void close(long now) {
            if (open != now && count > 0) {
                set(now, "lag", Double.NaN);
            }
        }

        Series series() {
            List<Long> at = new ArrayList<>(count);
            List<@Nullable Double> processedRate = new ArrayList<>(count);
            List<@Nullable Double> failedRate = new ArrayList<>(count);
            List<@Nullable Double> lags = new ArrayList<>(count);
            int first = (next + SAMPLES - count) % SAMPLES;
            for (int i = 0; i < count; i++) {
                int j = (first + i) % SAMPLES;
                int before = (j + SAMPLES - 1) % SAMPLES;
                at.add(times[j]);
                processedRate.add(i == 0 ? null : rate(processed, j, before));
                failedRate.add(i == 0 ? null : rate(failed, j, before));
                lags.add(Double.isNaN(lag[j]) ? null : lag[j]);
            }
            return new Series(kind, id, queue, at, processedRate, failedRate, lags);
        }

        private @Nullable Double rate(double[] counts, int j, int before) {
            double seconds = (times[j] - times[before]) / 1000.0;
            double delta = counts[j] - counts[before];
            // NaN where a meter was missing; a count that went down was a restart of the container: no rate there
            return Double.isNaN(delta) || delta < 0 || seconds <= 0 ? null : delta / seconds;
        }
    }
}
