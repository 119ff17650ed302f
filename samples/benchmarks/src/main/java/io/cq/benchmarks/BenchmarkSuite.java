package io.cq.benchmarks;

import io.cq.benchmarks.contended.ContendedWriteHarness;
import io.cq.benchmarks.contended.LockWaitHarness;
import io.cq.benchmarks.jmh.AppendBenchmark;
import io.cq.benchmarks.jmh.MethodMessageBenchmark;
import io.cq.benchmarks.jmh.MoveToIndexBenchmark;
import io.cq.benchmarks.jmh.PlainMappedWriteBenchmark;
import io.cq.benchmarks.jmh.ReadBenchmark;
import io.cq.benchmarks.jmh.RecentReadBenchmark;
import io.cq.benchmarks.latency.LatencyHarness;
import io.cq.benchmarks.listener.ListenerHarness;
import io.cq.benchmarks.stall.StorageStallHarness;
import io.cq.benchmarks.startup.StartupHarness;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Runs every benchmark for cq and Chronicle Queue in one invocation and writes the side-by-side table
 * (docs/performance.md explains the method). {@code quick} takes a few minutes for a check; {@code full}
 * repeats everything for the published table.
 *
 * <p>Arguments: {@code quick|full|smoke [report-file]} ({@code smoke}: iterations and runs so short that the figures
 * mean nothing, to see that a section runs); the system property {@code cq.bench.only} restricts the run to
 * the sections named (comma-separated: append, ceiling, read, messages, seek, latency, listener, pretouch, startup,
 * contended, lockwait, stall, codecs, console), and {@code cq.bench.impl} the JMH benchmarks to one implementation
 * (cq or chronicle), for quick checks while tuning (the codecs section, {@link CodecSection}, always runs all of its
 * own).
 * The latency sections also write a percentile plot (SVG) per scenario, into {@code cq.bench.plots} or else
 * {@code benchmark-<mode>-plots} beside the report; the console's last line names them.
 */
public final class BenchmarkSuite {
    /** How long a mode measures: JMH forks and iterations (of {@code iterationMillis}), latency and start-up runs. */
    record Settings(int forks, int warmups, int measurements, int iterationMillis, int latencyRuns,
                    int latencyWarmup, int latencySeconds, int startupRuns, int contendedPerWriter) {
    }

    private static final Settings QUICK = new Settings(1, 2, 3, 1_000, 1, 2, 4, 3, 300_000);
    private static final Settings FULL = new Settings(3, 3, 5, 1_000, 3, 5, 20, 7, 2_000_000);
    private static final Settings SMOKE = new Settings(1, 1, 1, 200, 1, 1, 1, 1, 10_000);

    private BenchmarkSuite() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "quick";
        Settings settings = switch (mode) {
            case "quick" -> QUICK;
            case "full" -> FULL;
            case "smoke" -> SMOKE;
            default -> throw new IllegalArgumentException("mode=" + mode + " must be quick, full or smoke");
        };
        Path reportFile = Path.of(args.length > 1 ? args[1] : "target/benchmark-" + mode + ".md");
        List<String> only = List.of(System.getProperty("cq.bench.only",
                "append,ceiling,read,messages,seek,latency,listener,pretouch,startup,contended,lockwait,stall,codecs,"
                + "console")
                .split(","));
        List<String> jvmArgs = forkJvmArgs();
        Report report = new Report(mode, jvmArgs);
        // Beside the report unless told otherwise (docs/performance.md regenerates its plots into docs/plots).
        Path plotDirectory = Path.of(System.getProperty("cq.bench.plots",
                reportFile.toAbsolutePath().resolveSibling("benchmark-" + mode + "-plots").toString()));
        LatencyPlots plots = new LatencyPlots(plotDirectory, String.format(Locale.ROOT,
                "%s mode: %d run%s of %d s warm-up + %d s measured per library%s", mode, settings.latencyRuns(),
                settings.latencyRuns() == 1 ? "" : "s", settings.latencyWarmup(), settings.latencySeconds(),
                settings.latencyRuns() == 1 ? "" : ", runs added together"));

        if (only.contains("append")) {
            report.throughput("Append", "excerpts/s", alternatingForks(settings, AppendBenchmark.class, jvmArgs,
                    System.getProperty("cq.bench.impl", String.join(",", paramValues(AppendBenchmark.class,
                    "implementation"))).split(",")));
        }
        if (only.contains("contended")) {
            // 16 configurations, each in fresh JVMs: about a minute in quick mode.
            report.contended(ContendedWriteHarness.runAll(Integer.getInteger("cq.bench.contended.size", 256),
                    settings.contendedPerWriter(), jvmArgs));
        }
        if (only.contains("lockwait")) {
            // 16 configurations, each in fresh JVMs, the bursts of virtual threads included.
            report.lockWait(LockWaitHarness.runAll(settings.contendedPerWriter(), jvmArgs));
        }
        if (only.contains("stall")) {
            // Async mode's case: the same stall for cq, cq in async mode and Chronicle, each in a JVM of its own.
            for (int run = 0; run < settings.latencyRuns(); run++) {
                for (String implementation : new String[] {"cq", "cq-async", "chronicle"}) {
                    Path directory = Files.createTempDirectory(Path.of("target"), "stall-" + implementation);
                    try {
                        report.stall(StorageStallHarness.run(implementation, 50_000, 40, settings.latencyWarmup(),
                                settings.latencySeconds() * 2, directory, jvmArgs));
                    } finally {
                        Directories.delete(directory);
                    }
                }
            }
        }
        if (only.contains("ceiling")) {
            report.markdown(CeilingSection.render(jmh(settings, PlainMappedWriteBenchmark.class, Mode.Throughput,
                    jvmArgs, false), jmh(settings, ReadBenchmark.class, Mode.Throughput, jvmArgs, false,
                    "implementation", "floor", "cq", "chronicle")));
        }
        if (only.contains("read")) {
            Collection<RunResult> reads = jmh(settings, ReadBenchmark.class, Mode.Throughput, jvmArgs, true);
            report.throughput("Sequential read, one excerpt per read context", "excerpts/s",
                    byMethod(reads, "read"));
            report.throughput("Sequential read, draining (cq's poll, 64 at a time; Chronicle has no batch read and "
                    + "reads one by one)", "excerpts/s", byMethod(reads, "readBatch"));
            Collection<RunResult> recent = jmh(settings, RecentReadBenchmark.class, Mode.Throughput, jvmArgs, true,
                    "size", "40");
            report.throughput("Sequential read of recent excerpts (4 MiB, in the caches), one excerpt per read "
                    + "context", "excerpts/s", byMethod(recent, "read"));
            report.throughput("Sequential read of recent excerpts (4 MiB, in the caches), draining", "excerpts/s",
                    byMethod(recent, "readBatch"));
        }
        if (only.contains("messages")) {
            report.messages(jmh(settings, MethodMessageBenchmark.class, Mode.Throughput, jvmArgs, true));
        }
        if (only.contains("seek")) {
            report.seek(jmh(settings, MoveToIndexBenchmark.class, Mode.SampleTime, jvmArgs, false));
        }
        if (only.contains("latency")) {
            List<LatencyHarness.Result> results = new ArrayList<>();
            for (boolean crossProcess : new boolean[] {false, true}) {
                for (int rate : new int[] {100_000, 1_000_000}) {
                    for (int run = 0; run < settings.latencyRuns(); run++) {
                        // The floor: a bare mapped file in the same harness, what is left for a queue to add.
                        for (String implementation : new String[] {"cq", "chronicle", "floor"}) {
                            Path directory = Files.createTempDirectory("latency-" + implementation);
                            try {
                                LatencyHarness.Result result = LatencyHarness.run(implementation, crossProcess,
                                        rate, LatencyHarness.MESSAGE_SIZE, settings.latencyWarmup(),
                                        settings.latencySeconds(), directory, jvmArgs);
                                report.latency(result);
                                results.add(result);
                            } finally {
                                Directories.delete(directory);
                            }
                        }
                    }
                }
            }
            report.plots(plots.write("latency", results));
        }
        if (only.contains("listener")) {
            for (int run = 0; run < settings.latencyRuns(); run++) {
                for (String consumer : new String[] {"raw", "listener"}) {
                    report.listener(ListenerHarness.run(consumer, "throughput", 0, 0, jvmArgs), false);
                    report.listener(ListenerHarness.run(consumer, "latency", 100_000, settings.latencySeconds(),
                            jvmArgs), true);
                }
            }
        }
        if (only.contains("pretouch")) {
            // The method of docs/reference tail-latency articles: 250K/s of 32-byte messages, with and without.
            List<LatencyHarness.Result> results = new ArrayList<>();
            for (int run = 0; run < settings.latencyRuns(); run++) {
                for (String implementation : new String[] {"cq", "cq+pretouch", "chronicle"}) {
                    Path directory = Files.createTempDirectory("pretouch-" + implementation.replace('+', '-'));
                    try {
                        LatencyHarness.Result result = LatencyHarness.run(implementation, false, 250_000, 32,
                                settings.latencyWarmup(), settings.latencySeconds(), directory, jvmArgs);
                        report.pretouch(result);
                        results.add(result);
                    } finally {
                        Directories.delete(directory);
                    }
                }
            }
            report.plots(plots.write("pretouch", results));
        }
        if (only.contains("codecs")) {
            CodecSection.run(settings, report, plots, jvmArgs);
        }
        if (only.contains("console")) {
            ConsoleSection.run(settings, report, jvmArgs);
        }
        if (only.contains("startup")) {
            Path work = Files.createTempDirectory("startup-aot");
            try {
                Map<String, StartupHarness.AotCache> caches = new LinkedHashMap<>();
                for (String implementation : new String[] {"cq", "chronicle", StartupHarness.NO_QUEUE}) {
                    caches.put(implementation, StartupHarness.trainAotCache(implementation, work, jvmArgs,
                            StartupHarness.applicationClassPath(implementation, work)));
                }
                for (int run = 0; run < settings.startupRuns(); run++) {
                    for (String implementation : caches.keySet()) {
                        Path directory = Files.createTempDirectory("startup-" + implementation);
                        try {
                            // The same JARs as the cached run, without its cache.
                            report.startup(implementation, StartupHarness.run(implementation,
                                    directory.resolve("queue"), jvmArgs, caches.get(implementation).classPath()));
                            report.startup(implementation + ", AOT cache",
                                    StartupHarness.runWithAotCache(implementation,
                                    directory.resolve("queue-aot"), jvmArgs, caches.get(implementation)));
                        } finally {
                            Directories.delete(directory);
                        }
                    }
                }
                // The CLI as operators start it: bin/cq runs java -jar cq.jar with the AOT cache it trains.
                Path cliJar = Path.of(System.getProperty("cq.bench.cliJar", "cq-cli/target/cq.jar"));
                if (Files.isRegularFile(cliJar)) {
                    Path queue = StartupHarness.cliQueue(cliJar, work);
                    Path cache = StartupHarness.trainCliAotCache(cliJar, queue, work);
                    for (int run = 0; run < settings.startupRuns(); run++) {
                        report.cliTailReady("java -jar cq.jar", StartupHarness.cliTailReady(cliJar, queue, null));
                        report.cliTailReady("java -XX:AOTCache=... -jar cq.jar (bin/cq)",
                                StartupHarness.cliTailReady(cliJar, queue, cache));
                    }
                } else {
                    System.out.println("cq tail start-up skipped: no " + cliJar.toAbsolutePath()
                            + " (build cq-cli, or set -Dcq.bench.cliJar)");
                }
            } finally {
                Directories.delete(work);
            }
        }
        String text = report.render(reportFile.toAbsolutePath().getParent());
        Files.createDirectories(reportFile.toAbsolutePath().getParent());
        Files.writeString(reportFile, text);
        System.out.println(text);
        System.out.println("written to " + reportFile.toAbsolutePath());
        if (!report.plotFiles().isEmpty()) {
            System.out.println("latency percentile plots (SVG) written to " + plotDirectory.toAbsolutePath() + ": "
                    + String.join(", ", report.plotFiles().stream().map(file -> file.getFileName().toString())
                    .toList()));
        }
    }

    /** Flags of every forked JVM: the same for both libraries, Chronicle's module openings included. */
    /** The results of one benchmark method of a class that has several. */
    private static List<RunResult> byMethod(Collection<RunResult> results, String method) {
        List<RunResult> matching = new ArrayList<>();
        for (RunResult result : results) {
            if (result.getParams().getBenchmark().endsWith("." + method)) {
                matching.add(result);
            }
        }
        return matching;
    }

    public static List<String> forkJvmArgs() {
        List<String> args = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED", "-Xms2g", "-Xmx2g"));
        args.addAll(ChronicleDriver.JVM_ARGS);
        String directory = System.getProperty("cq.bench.dir");
        if (directory != null && !directory.isBlank()) {
            // Where the JMH benchmarks make their queues (tmpfs, say): the forks must know it.
            args.add("-Dcq.bench.dir=" + directory);
        }
        return args;
    }

    /**
     * A throughput benchmark with {@code implementation} and {@code size} parameters, one fork at a time: for each
     * size the {@code implementations} take turns, fork by fork, and each library's forks are then merged into one
     * result. What a fresh file costs to fault in moves with the machine's state over minutes (docs/performance.md,
     * "1 KiB appends: memory that is new to the VM"); run all of one library's forks and then the other's, as JMH
     * orders its parameters, and the ratio of the two measured that drift as much as the libraries.
     */
    static Collection<RunResult> alternatingForks(Settings settings, Class<?> benchmark, List<String> jvmArgs,
                                                  String... implementations) throws Exception {
        Map<String, List<RunResult>> forks = new LinkedHashMap<>();
        for (String size : paramValues(benchmark, "size")) {
            for (int fork = 0; fork < settings.forks(); fork++) {
                // Who goes first changes from fork to fork: a fork right after another JVM exited finds more memory
                // still backed.
                List<String> turn = new ArrayList<>(List.of(implementations));
                if (fork % 2 == 1) {
                    Collections.reverse(turn);
                }
                for (String implementation : turn) {
                    ChainedOptionsBuilder options = jmhOptions(settings, benchmark, Mode.Throughput, jvmArgs, true)
                            .forks(1).param("implementation", implementation).param("size", size);
                    forks.computeIfAbsent(implementation + "/" + size, k -> new ArrayList<>())
                            .addAll(new Runner(options.build()).run());
                }
            }
        }
        // The merged result's parameters are its first fork's: they say 1 fork; its statistics pool all of them.
        List<RunResult> merged = new ArrayList<>();
        for (List<RunResult> runs : forks.values()) {
            List<BenchmarkResult> results = new ArrayList<>();
            runs.forEach(run -> results.addAll(run.getBenchmarkResults()));
            merged.add(new RunResult(runs.getFirst().getParams(), results));
        }
        return merged;
    }

    private static String[] paramValues(Class<?> benchmark, String field) {
        try {
            Param values = benchmark.getField(field).getAnnotation(Param.class);
            if (values == null) {
                throw new IllegalArgumentException(benchmark.getName() + "." + field + " is not a @Param field");
            }
            return values.value();
        } catch (NoSuchFieldException e) {
            throw new IllegalArgumentException(benchmark.getName() + " has no parameter " + field, e);
        }
    }

    /** {@code param} is a JMH parameter's name and the values to run it with, when not all of its own. */
    private static Collection<RunResult> jmh(Settings settings, Class<?> benchmark, Mode mode, List<String> jvmArgs,
                                             boolean gcProfiler, String... param) throws Exception {
        ChainedOptionsBuilder options = jmhOptions(settings, benchmark, mode, jvmArgs, gcProfiler);
        if (param.length > 0) {
            options.param(param[0], Arrays.copyOfRange(param, 1, param.length));
        }
        String implementations = System.getProperty("cq.bench.impl");
        // A section that names its implementations itself (the ceilings' floor) keeps them.
        if (implementations != null && (param.length == 0 || !param[0].equals("implementation"))) {
            options.param("implementation", implementations.split(","));
        }
        return new Runner(options.build()).run();
    }

    static ChainedOptionsBuilder jmhOptions(Settings settings, Class<?> benchmark, Mode mode, List<String> jvmArgs,
                                            boolean gcProfiler) {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(benchmark.getName()) + "\\.")
                .forks(settings.forks())
                .warmupIterations(settings.warmups())
                .warmupTime(TimeValue.milliseconds(settings.iterationMillis()))
                .measurementIterations(settings.measurements())
                .measurementTime(TimeValue.milliseconds((mode == Mode.SampleTime ? 2L : 1L)
                        * settings.iterationMillis()))
                .mode(mode)
                .timeUnit(mode == Mode.SampleTime ? TimeUnit.NANOSECONDS : TimeUnit.SECONDS)
                .jvmArgsAppend(jvmArgs.toArray(String[]::new))
                .shouldFailOnError(true);
        if (gcProfiler) {
            options.addProfiler(GCProfiler.class);
        }
        return options;
    }

    public static String format(double value) {
        if (value >= 1e6) {
            return String.format(Locale.ROOT, "%.2fM", value / 1e6);
        }
        if (value >= 1e3) {
            return String.format(Locale.ROOT, "%.1fK", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.1f", value);
    }

}
