package io.cq.benchmarks;

import io.cq.benchmarks.console.ConsoleCostHarness;
import io.cq.benchmarks.console.ConsolePageHarness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The suite's {@code console} section (docs/console.md, docs/performance.md "Console"): the targets of issue 42,
 * each measured in fresh JVMs running a Spring Boot web application with the starter:
 * <ul>
 *   <li>what browsing a page of 50 excerpts of a queue of 1,000,000 costs in the service, by kind of page
 *       ({@link ConsolePageHarness});</li>
 *   <li>when the page is usable, with ten queues: in headless Chromium through Selenium
 *       ({@code io.cq.benchmarks.console.PageInBrowser}), and the HTTP time of every request the page makes on
 *       load;</li>
 *   <li>append throughput, listener throughput and listener end-to-end latency with the console off, on without a
 *       viewer, and on with a viewer polling, in interleaved runs ({@link ConsoleCostHarness}).</li>
 * </ul>
 * Chromium and ChromeDriver are {@code cq.bench.chromium} and {@code cq.bench.chromedriver}, else
 * /usr/bin/chromium and /usr/bin/chromedriver ({@code bin/install-chromium} installs them); without them the browser
 * table says so and the HTTP table stands alone.
 */
final class ConsoleSection {
    static final int EXCERPTS = 1_000_000;
    static final double PAGE_TARGET_MS = 100;
    static final double USABLE_TARGET_MS = 1_000;
    /** How often the viewer asks: eight times as often as the page's default refresh of 2 s. */
    static final int VIEWER_PERIOD_MS = 250;
    /** Well under what the listener drains, wrapped in its Micrometer observation (the listened/s column). */
    static final int LATENCY_RATE = 20_000;
    static final List<String> CONFIGURATIONS = List.of("console off", "console on, no viewer",
            "console on, a viewer polling");

    private ConsoleSection() {
    }

    static void run(BenchmarkSuite.Settings settings, Report report, List<String> jvmArgs) throws Exception {
        boolean smoke = settings.iterationMillis() < 1_000;
        boolean full = settings.forks() > 1;
        int excerpts = smoke ? 100_000 : EXCERPTS;
        int requests = smoke ? 10 : full ? 1_000 : 200;
        int loads = smoke ? 2 : full ? 30 : 10;
        Path base = Path.of(System.getProperty("cq.bench.dir", "target"));
        Files.createDirectories(base);

        Path directory = Files.createTempDirectory(base.toAbsolutePath(), "console-pages");
        int pageWarmup = smoke ? 5 : 100;
        ConsolePages pages = new ConsolePages(excerpts, pageWarmup);
        try {
            List<String> args = new ArrayList<>(List.of(directory.toString(), Integer.toString(excerpts),
                    Integer.toString(requests), Integer.toString(pageWarmup), Integer.toString(loads)));
            String[] browser = browser();
            if (browser != null) {
                args.addAll(List.of(browser));
            }
            child(ConsolePageHarness.class, args, jvmArgs, line -> {
                pages.accept(line);
                return null;
            });
        } finally {
            Directories.delete(directory);
        }
        report.markdown(pages.render());

        int runs = smoke ? 1 : Math.max(3, settings.latencyRuns());
        int appends = smoke ? 50_000 : 1_000_000;
        int warmup = settings.latencyWarmup();
        int seconds = settings.latencySeconds();
        Map<String, List<double[]>> results = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            List<String> turn = new ArrayList<>(CONFIGURATIONS);
            // Who goes first changes from run to run.
            for (int i = 0; i < run % CONFIGURATIONS.size(); i++) {
                turn.addLast(turn.removeFirst());
            }
            for (String configuration : turn) {
                double[] result = cost(configuration, appends, warmup, seconds, jvmArgs);
                results.computeIfAbsent(configuration, k -> new ArrayList<>()).add(result);
                order.add(String.format(Locale.ROOT, "| %d | %s | %s | %s | %.1f | %.1f | %.1f |", run + 1,
                        configuration, BenchmarkSuite.format(result[0]), BenchmarkSuite.format(result[1]),
                        result[2] / 1e3, result[4] / 1e3, result[6] / 1e3));
            }
        }
        report.markdown(ConsolePages.cost(results, order, runs, appends, warmup, seconds));
    }

    /** One run of the cost harness: {appends/s, listened/s, p50, p90, p99, p99.9, max (ns), viewer requests}. */
    private static double[] cost(String configuration, int appends, int warmup, int seconds, List<String> jvmArgs)
            throws Exception {
        boolean console = !configuration.equals(CONFIGURATIONS.getFirst());
        boolean viewer = configuration.equals(CONFIGURATIONS.getLast());
        Path directory = Files.createTempDirectory("console-cost");
        ScheduledExecutorService view = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger answered = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            String result = child(ConsoleCostHarness.class, List.of(Boolean.toString(console), directory.toString(),
                    Integer.toString(appends), Integer.toString(LATENCY_RATE), Integer.toString(warmup),
                    Integer.toString(seconds)), jvmArgs, line -> {
                        if (line.startsWith("port ") && viewer) {
                            String api = "http://localhost:" + line.substring(5).strip()
                                    + ConsolePageHarness.CONSOLE + "/api/";
                            view.scheduleAtFixedRate(() -> poll(http, api, answered, refused), 0, VIEWER_PERIOD_MS,
                                    TimeUnit.MILLISECONDS);
                        }
                        if (line.startsWith("result ")) {
                            // the service stops after its result: what the viewer meets then is no refusal
                            view.shutdownNow();
                            return line;
                        }
                        return null;
                    });
            if (viewer && (answered.get() == 0 || refused.get() > 0)) {
                throw new IllegalStateException("the viewer was answered " + answered + " times and refused "
                        + refused + " times");
            }
            String[] parts = result.split(" ");
            double[] figures = new double[8];
            for (int i = 0; i < 7; i++) {
                figures[i] = Double.parseDouble(parts[i + 1]);
            }
            figures[7] = answered.get();
            return figures;
        } finally {
            view.shutdownNow();
            view.awaitTermination(10, TimeUnit.SECONDS);
            http.close();
            Directories.delete(directory);
        }
    }

    /** What the page asks every refresh (the figures), and the last page of the excerpt browser. */
    private static void poll(HttpClient http, String api, AtomicInteger answered, AtomicInteger refused) {
        for (String path : new String[] {"overview", "queues/ticks/excerpts?from=end"}) {
            try {
                int status = http.send(HttpRequest.newBuilder(URI.create(api + path)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode();
                if (!Thread.currentThread().isInterrupted()) {
                    (status == 200 ? answered : refused).incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (IOException e) {
                if (!Thread.currentThread().isInterrupted()) {
                    refused.incrementAndGet();
                }
            }
        }
    }

    /** Chromium and ChromeDriver, or null when either is missing. */
    private static String[] browser() {
        String chromium = System.getProperty("cq.bench.chromium", "/usr/bin/chromium");
        String driver = System.getProperty("cq.bench.chromedriver", "/usr/bin/chromedriver");
        return Files.isExecutable(Path.of(chromium)) && Files.isExecutable(Path.of(driver))
                ? new String[] {chromium, driver} : null;
    }

    /** Runs a harness in a fresh JVM; every line of its output goes to {@code lines}; returns the last non-null. */
    private static String child(Class<?> main, List<String> args, List<String> jvmArgs,
                                Function<String, String> lines) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String kept = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                String answer = lines.apply(line);
                kept = answer != null ? answer : kept;
            }
        }
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException(main.getSimpleName() + " " + args + " failed (exit "
                    + (process.isAlive() ? "none" : process.exitValue()) + ")");
        }
        if (main == ConsoleCostHarness.class && kept == null) {
            throw new IllegalStateException(main.getSimpleName() + " " + args + " printed no result");
        }
        return kept;
    }
}
