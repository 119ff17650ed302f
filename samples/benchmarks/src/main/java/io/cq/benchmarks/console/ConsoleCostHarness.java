package io.cq.benchmarks.console;

import io.cq.benchmarks.listener.ListenerHarness.Tick;
import io.cq.benchmarks.listener.ListenerHarness.TickEvents;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.config.ListenerContainerRegistry;
import org.HdrHistogram.Histogram;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Child JVM of the console section's third table ("enabling the console changes no append or listener figure"): a
 * Spring Boot web application with the Actuator, the {@code queues} endpoint exposed, and a class-level
 * {@code @QueueListener} on the queue "ticks", started with the console off or on. It prints {@code port <n>} once it
 * serves (the suite then starts its viewer, when the run has one, from its own process, as a browser elsewhere
 * would), waits a second, and measures:
 * <ul>
 *   <li>append throughput: {@value #APPEND_ROUNDS} rounds of {@code appends} self-written 24-byte ticks through a
 *       method writer, with the listener paused, the first round a warm-up; the median of the others;</li>
 *   <li>listener throughput: the listener resumed on all of them, from resume to the last one;</li>
 *   <li>listener end-to-end latency: ticks sent at a fixed rate, each stamped with the time it was due, the listener
 *       recording {@code now - due} (coordinated omission corrected), after a warm-up.</li>
 * </ul>
 * Prints one line: {@code result <appends/s> <listened/s> <p50> <p90> <p99> <p99.9> <max>} (ns).
 */
public final class ConsoleCostHarness {
    public static final int APPEND_ROUNDS = 5;
    static final String LISTENER = "bench";

    private ConsoleCostHarness() {
    }

    /** The listener: counts, and records latency once told to. */
    @QueueListener(queue = "ticks", id = LISTENER)
    public static class TickListener implements TickEvents {
        volatile long count;
        volatile long lastNanos;
        volatile boolean recording;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(30), 3);

        @Override
        public void onTick(Tick tick) {
            long now = System.nanoTime();
            if (recording) {
                latency.recordValue(Math.max(0, now - tick.scheduledNanos));
            }
            lastNanos = now;
            count = count + 1;
        }
    }

    /** The application: a web application with the listener; the console as the arguments say. No scanning. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class Service {
        @Bean
        TickListener tickListener() {
            return new TickListener();
        }
    }

    /** {@code <console on: true|false> <dir> <appends per round> <rate> <warm-up s> <measured s>}. */
    public static void main(String[] args) throws Exception {
        boolean console = Boolean.parseBoolean(args[0]);
        Path directory = Path.of(args[1]);
        int appends = Integer.parseInt(args[2]);
        int rate = Integer.parseInt(args[3]);
        int warmup = Integer.parseInt(args[4]);
        int seconds = Integer.parseInt(args[5]);
        SpringApplication application = new SpringApplication(Service.class);
        application.setLogStartupInfo(false);
        try (ConfigurableApplicationContext context = application.run("--cq.base-path=" + directory,
                "--cq.queues.ticks.roll-cycle=daily", "--cq.console.enabled=" + console, "--server.port=0",
                "--management.endpoints.web.exposure.include=queues", "--spring.main.banner-mode=off",
                "--logging.level.root=warn")) {
            System.out.println("port " + context.getEnvironment().getProperty("local.server.port"));
            // A deliberate pause of the benchmark, not a wait for a condition: what Boot starts in the background
            // after the context is up (the web server's threads, the console's first class loading) settles before
            // anything is timed, as LatencyHarness.settle does between runs.
            Thread.sleep(1_000);
            MappedQueue queue = context.getBean("ticks", MappedQueue.class);
            TickListener listener = context.getBean(TickListener.class);
            ListenerContainerRegistry listeners = context.getBean(ListenerContainerRegistry.class);
            TickEvents events = Messages.methodWriter(queue.createAppender(), TickEvents.class);

            listeners.pause(LISTENER);
            double[] rounds = new double[APPEND_ROUNDS - 1];
            for (int round = 0; round < APPEND_ROUNDS; round++) {
                double perSecond = append(events, appends);
                if (round > 0) {
                    rounds[round - 1] = perSecond;
                }
            }
            Arrays.sort(rounds);
            long expected = (long) appends * APPEND_ROUNDS;
            long resumed = System.nanoTime();
            listeners.resume(LISTENER);
            waitFor(listener, expected);
            double listened = expected / ((listener.lastNanos - resumed) / 1e9);

            sendAtRate(events, rate, warmup, listener);
            listener.latency.reset();
            listener.recording = true;
            sendAtRate(events, rate, seconds, listener);
            listener.recording = false;
            Histogram latency = listener.latency;
            System.out.println(String.format(Locale.ROOT, "result %.1f %.1f %d %d %d %d %d", rounds[rounds.length / 2],
                    listened, latency.getValueAtPercentile(50), latency.getValueAtPercentile(90),
                    latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9), latency.getMaxValue()));
        }
    }

    private static double append(TickEvents events, int appends) {
        Tick tick = new Tick();
        long started = System.nanoTime();
        for (int i = 0; i < appends; i++) {
            tick.scheduledNanos = System.nanoTime();
            tick.instrument = i;
            tick.price = i * 0.25;
            events.onTick(tick);
        }
        return appends / ((System.nanoTime() - started) / 1e9);
    }

    /** Sends at a fixed rate for a while, each tick stamped with the time it was due, then waits for the listener. */
    private static void sendAtRate(TickEvents events, int rate, int seconds, TickListener listener) {
        Tick tick = new Tick();
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long total = (long) rate * seconds;
        long expected = listener.count + total;
        long start = System.nanoTime();
        for (long i = 0; i < total; i++) {
            long due = start + i * interval;
            while (System.nanoTime() < due) {
                Thread.onSpinWait();
            }
            tick.scheduledNanos = due;
            tick.instrument = i;
            events.onTick(tick);
        }
        waitFor(listener, expected);
    }

    private static void waitFor(TickListener listener, long count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (listener.count < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the listener received " + listener.count + " of " + count);
            }
            LockSupport.parkNanos(100_000);
        }
    }
}
