package io.cq.benchmarks.listener;

import io.cq.benchmarks.console.ConsoleDependencies;
import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.idle.IdleStrategy;
import io.cq.core.message.BytesMessage;
import io.cq.core.message.Messages;
import io.cq.core.message.MethodReader;
import io.cq.spring.annotation.QueueListener;
import org.HdrHistogram.Histogram;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A {@code @QueueListener} (class-level, method-reader dispatch, in a Spring Boot context) against a raw named
 * tailer with a method reader (a listener's tailer is named too: both persist their position with each excerpt),
 * on the same workload of self-written {@link Tick} messages, each in a fresh JVM:
 * <ul>
 *   <li>throughput: 2,000,000 messages written ahead, then read as fast as the consumer can, timed from its first
 *       to its last message;</li>
 *   <li>latency: an appender at a fixed rate stamps each message with its scheduled send time, the consumer records
 *       {@code now - scheduled} (coordinated omission corrected); both consumers back off when idle, as the
 *       container does by default;</li>
 *   <li>allocation: bytes the consumer thread allocated per message, from the thread allocation counter.</li>
 * </ul>
 */
public final class ListenerHarness {
    static final int THROUGHPUT_MESSAGES = 2_000_000;

    /** One consumer's figures: throughput and allocation, or latency percentiles (ns) at a rate. */
    public record Result(String consumer, double messagesPerSecond, double bytesPerMessage, long p50, long p99,
                         long p999, long max) {
    }

    /**
     * A self-written message: no reflection, no allocation to read or write. Not the suite's shared
     * {@code messages.Tick}: this one carries the time it was due, for the latency measurement.
     */
    public static final class Tick implements BytesMessage {
        public long scheduledNanos;
        public long instrument;
        public double price;

        @Override
        public void writeTo(ExcerptBytes bytes) {
            bytes.writeLong(scheduledNanos).writeLong(instrument).writeDouble(price);
        }

        @Override
        public void readFrom(ExcerptBytes bytes) {
            scheduledNanos = bytes.readLong();
            instrument = bytes.readLong();
            price = bytes.readDouble();
        }
    }

    public interface TickEvents {
        void onTick(Tick tick);
    }

    /** Counts and times what it receives; the same for both consumers. */
    public static class Recorder implements TickEvents {
        volatile long count;
        volatile long firstNanos;
        volatile long lastNanos;
        volatile boolean recordLatency;
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        volatile long allocatedAtFirst;
        /** Read when the last of the throughput run's messages arrives: calling the counter per message would cost. */
        volatile long allocatedAtLast;

        @Override
        public void onTick(Tick tick) {
            long now = System.nanoTime();
            long n = count + 1;
            if (n == 1) {
                firstNanos = now;
                allocatedAtFirst = allocated();
            }
            if (recordLatency) {
                latency.recordValue(Math.max(0, now - tick.scheduledNanos));
            }
            if (n == THROUGHPUT_MESSAGES) {
                allocatedAtLast = allocated();
            }
            lastNanos = now;
            count = n;
        }
    }

    /** The Spring side: one class-level listener on the queue "ticks". */
    @SpringBootApplication
    public static class ListenerApplication {
        @Bean
        TickListener tickListener() {
            return new TickListener();
        }
    }

    @QueueListener(queue = "ticks", id = "bench")
    public static class TickListener extends Recorder {
    }

    private ListenerHarness() {
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** Child JVM: {@code <raw|listener> <throughput|latency> <dir> <rate> <seconds>}; prints one result line. */
    public static void main(String[] args) throws Exception {
        String consumer = args[0];
        boolean throughput = args[1].equals("throughput");
        Path directory = Path.of(args[2]);
        int rate = Integer.parseInt(args[3]);
        int seconds = Integer.parseInt(args[4]);
        Path queueDir = directory.resolve("ticks");
        if (throughput) {
            writeAhead(queueDir, THROUGHPUT_MESSAGES);
        }
        Recorder recorder;
        ConfigurableApplicationContext context = null;
        Thread rawThread = null;
        MappedQueue rawQueue = null;
        if (consumer.equals("listener")) {
            SpringApplication application = new SpringApplication(ListenerApplication.class);
            application.setWebApplicationType(WebApplicationType.NONE);
            application.setLogStartupInfo(false);
            context = application.run("--cq.base-path=" + directory, "--cq.queues.ticks.roll-cycle=daily",
                    "--spring.main.banner-mode=off", "--logging.level.root=warn");
            recorder = context.getBean(TickListener.class);
        } else {
            recorder = new Recorder();
            rawQueue = MappedQueue.builder(queueDir).build();
            MappedQueue q = rawQueue;
            Recorder r = recorder;
            rawThread = Thread.ofPlatform().name("raw-tailer").daemon().start(() -> consume(q, r));
        }
        try {
            if (throughput) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
                while (recorder.count < THROUGHPUT_MESSAGES && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                double elapsed = (recorder.lastNanos - recorder.firstNanos) / 1e9;
                System.out.println(line(consumer, (recorder.count - 1) / elapsed,
                        (double) (recorder.allocatedAtLast - recorder.allocatedAtFirst) / Math.max(1,
                        recorder.count - 1),
                        new Histogram(3)));
            } else {
                try (MappedQueue queue = MappedQueue.builder(queueDir).build()) {
                    sendAtRate(queue, rate, 2, recorder, false);
                    recorder.latency.reset();
                    recorder.recordLatency = true;
                    long before = recorder.count;
                    sendAtRate(queue, rate, seconds, recorder, true);
                    long received = recorder.count - before;
                    System.out.println(line(consumer, received / (double) seconds, Double.NaN, recorder.latency));
                }
            }
        } finally {
            if (context != null) {
                context.close();
            }
            if (rawThread != null) {
                rawThread.interrupt();
                rawThread.join(5_000);
                rawQueue.close();
            }
        }
    }

    private static void consume(MappedQueue queue, Recorder recorder) {
        // A named tailer, as a listener's is: both persist their position with every excerpt they finish.
        try (ExcerptTailer tailer = queue.createTailer("raw")) {
            MethodReader reader = Messages.methodReader(tailer, recorder);
            IdleStrategy idle = IdleStrategy.backoff();
            while (!Thread.currentThread().isInterrupted()) {
                idle.idle(reader.readOne() ? 1 : 0);
            }
        }
    }

    private static void writeAhead(Path queueDir, int messages) {
        try (MappedQueue queue = MappedQueue.builder(queueDir).build();
                ExcerptAppender appender = queue.createAppender()) {
            TickEvents events = Messages.methodWriter(appender, TickEvents.class);
            Tick tick = new Tick();
            for (int i = 0; i < messages; i++) {
                tick.instrument = i;
                tick.price = i * 0.25;
                tick.scheduledNanos = System.nanoTime();
                events.onTick(tick);
            }
        }
    }

    /**
     * Sends at a fixed rate for a while, each message stamped with the time it was due, then waits for the consumer.
     */
    private static void sendAtRate(MappedQueue queue, int rate, int seconds, Recorder recorder, boolean waitForAll) {
        TickEvents events = Messages.methodWriter(queue.createAppender(), TickEvents.class);
        Tick tick = new Tick();
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long start = System.nanoTime();
        long total = (long) rate * seconds;
        long expected = recorder.count + total;
        for (long i = 0; i < total; i++) {
            long due = start + i * interval;
            while (System.nanoTime() < due) {
                Thread.onSpinWait();
            }
            tick.scheduledNanos = due;
            tick.instrument = i;
            events.onTick(tick);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (waitForAll && recorder.count < expected && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
    }

    private static String line(String consumer, double rate, double bytesPerMessage, Histogram latency) {
        return String.format(Locale.ROOT, "result %s %.1f %.3f %d %d %d %d", consumer, rate, bytesPerMessage,
                latency.getValueAtPercentile(50), latency.getValueAtPercentile(99), latency.getValueAtPercentile(99.9),
                latency.getMaxValue());
    }

    /** Runs one measurement in a fresh JVM and parses its result line. */
    public static Result run(String consumer, String measurement, int rate, int seconds, List<String> jvmArgs)
            throws Exception {
        Path directory = Files.createTempDirectory("listener-" + consumer);
        try {
            List<String> command = new ArrayList<>();
            command.add(ProcessHandle.current().info().command().orElseThrow());
            command.addAll(jvmArgs);
            // the class path the listener section always had: no Actuator, Micrometer or web server of the console's
            command.addAll(List.of("-cp", ConsoleDependencies.without(System.getProperty("java.class.path")),
                    ListenerHarness.class.getName(),
                    consumer,
                    measurement, directory.toString(), Integer.toString(rate), Integer.toString(seconds)));
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String result = null;
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("result ")) {
                        result = line;
                    }
                }
            }
            if (!process.waitFor(180, TimeUnit.SECONDS) || process.exitValue() != 0 || result == null) {
                throw new IllegalStateException("listener harness " + consumer + " " + measurement + " failed: "
                        + result);
            }
            String[] parts = result.split(" ");
            return new Result(consumer, Double.parseDouble(parts[2]), Double.parseDouble(parts[3]),
                    Long.parseLong(parts[4]),
                    Long.parseLong(parts[5]), Long.parseLong(parts[6]), Long.parseLong(parts[7]));
        } finally {
            io.cq.benchmarks.Directories.delete(directory);
        }
    }
}
