package io.cq.benchmarks.startup;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Time to the first appended excerpt: from just before the process is started to its append (the whole JVM
 * start counted), and from the start of {@code main()} to the append. Measured with the JVM's defaults and with
 * an AOT cache (JDK 24+, {@code -XX:AOTCache}) trained by one run of the same program, the start-up option a
 * latency-minded deployment would take; both libraries get the same treatment.
 *
 * <p>Each process gets a class path of its own: the benchmark's classes and its library's own entries, as an
 * application that uses only that library has. On the suite's whole class path (about 56 entries) a library whose
 * JARs come later pays for opening and searching every JAR before its own: measured on 2026-11-27, 24 ms of
 * Chronicle's start-up against 2 ms of cq's, which sits first.
 *
 * <p>Every entry of that class path is a JAR, with and without an AOT cache, as in a deployed application: the
 * benchmark's classes directory is packed into one. With the classes in a directory, two costs a deployed
 * application does not have fell after {@code main()}: the JVM's first inflated JAR entry (about 7 ms, charged to
 * whichever library was loaded from a JAR), and a failed look-up in the directory for each class a library loads
 * (about 25 ms of Chronicle's 1,500 classes). docs/performance.md, "Start-up from JARs", has the measurements.
 */
public final class StartupHarness {
    /** The implementation name of a process that appends nothing, to show what the JVM alone costs. */
    public static final String NO_QUEUE = "none";

    /** One run, in nanoseconds. */
    public record Result(long processToFirstExcerpt, long mainToFirstExcerpt) {
    }

    private StartupHarness() {
    }

    /**
     * Maven repository folders of Chronicle Queue's runtime dependencies (its own artifacts, JNA and jnr for its
     * native calls, ASM, JetBrains annotations, commons-cli, SLF4J), as the benchmark's pom resolves them.
     */
    private static final List<String> CHRONICLE_GROUPS = List.of("/net/openhft/", "/net/java/dev/jna/",
            "/com/github/jnr/", "/org/ow2/asm/", "/org/jetbrains/annotations/", "/commons-cli/", "/org/slf4j/");

    /**
     * One run with the JVM's defaults, on a class path made by {@link #applicationClassPath}.
     *
     * @param directory the queue's directory, which must not exist yet
     */
    public static Result run(String implementation, Path directory, List<String> jvmArgs, String classPath)
            throws Exception {
        return run(implementation, directory, jvmArgs, classPath, ProcessBuilder.Redirect.INHERIT);
    }

    /**
     * The class path of a start-up process, every entry a JAR as in a deployed application: {@link #classPathOf}
     * with each directory packed into a JAR in {@code workDirectory} (once; the implementations share the
     * benchmark's). An AOT cache accepts nothing else, and runs without one get the same.
     */
    public static String applicationClassPath(String implementation, Path workDirectory) throws IOException {
        return jarOnlyClassPath(classPathOf(implementation), workDirectory);
    }

    /** The benchmark's classes and the implementation's own entries of this JVM's class path, in their order. */
    static String classPathOf(String implementation) {
        String benchmark = Path.of(codeSource(FirstExcerpt.class)).toString();
        List<String> entries = new ArrayList<>();
        entries.add(benchmark);
        int own = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String normalized = entry.replace(File.separatorChar, '/');
            boolean mine = switch (implementation) {
                case "cq" -> normalized.contains("/cq-core/") || Path.of(entry).getFileName().toString()
                        .startsWith("cq-core-");
                case "chronicle" -> CHRONICLE_GROUPS.stream().anyMatch(normalized::contains);
                default -> false;
            };
            if (mine && !entry.isEmpty() && !Path.of(entry).toString().equals(benchmark)) {
                entries.add(entry);
                own++;
            }
        }
        if (own == 0 && !implementation.equals(NO_QUEUE)) {
            throw new IllegalStateException("no class path entry of " + implementation + " found in "
                    + System.getProperty("java.class.path"));
        }
        return String.join(File.pathSeparator, entries);
    }

    private static String codeSource(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the benchmark's classes", e);
        }
    }

    /** One run with an AOT cache made by {@link #trainAotCache}. */
    public static Result runWithAotCache(String implementation, Path directory, List<String> jvmArgs, AotCache cache)
            throws Exception {
        List<String> args = new ArrayList<>(jvmArgs);
        args.add("-XX:AOTCache=" + cache.file());
        return run(implementation, directory, args, cache.classPath(), ProcessBuilder.Redirect.INHERIT);
    }

    /** An AOT cache and the class path it was made for (the JVM refuses it with any other). */
    public record AotCache(Path file, String classPath) {
    }

    /**
     * Records an AOT cache from one training run of {@link FirstExcerpt}, on a class path made by
     * {@link #applicationClassPath} (the JVM accepts only JAR files on the class path of a cached run).
     */
    public static AotCache trainAotCache(String implementation, Path workDirectory, List<String> jvmArgs,
                                         String classPath) throws Exception {
        Path cache = workDirectory.resolve(implementation + ".aot");
        List<String> args = new ArrayList<>(jvmArgs);
        args.add("-XX:AOTCacheOutput=" + cache);
        args.add("-Xlog:aot=error");
        // The JVM forks a child to write the cache, and that child announces its options on stderr: not worth showing.
        run(implementation, workDirectory.resolve("training-" + implementation), args, classPath,
                ProcessBuilder.Redirect.DISCARD);
        if (!Files.isRegularFile(cache)) {
            throw new IllegalStateException("the JVM wrote no AOT cache for " + implementation + " at " + cache);
        }
        return new AotCache(cache, classPath);
    }

    /** The JAR each directory was packed into, by work directory and directory. */
    private static final Map<String, Path> PACKED = new HashMap<>();

    private static synchronized String jarOnlyClassPath(String classPath, Path workDirectory) throws IOException {
        List<String> entries = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            Path path = Path.of(entry);
            if (Files.isDirectory(path)) {
                // Packed once per work directory: the implementations' class paths share the benchmark's classes.
                String key = workDirectory.toAbsolutePath() + File.pathSeparator + path.toAbsolutePath();
                Path jar = PACKED.get(key);
                if (jar == null) {
                    jar = workDirectory.resolve("classes-" + PACKED.size() + ".jar");
                    Path partial = workDirectory.resolve(jar.getFileName() + ".part");
                    packDirectory(path, partial);
                    // Whole or not at all: a JAR left half-written by a failed run is never taken for a packed one.
                    Files.move(partial, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    PACKED.put(key, jar);
                }
                entries.add(jar.toString());
            } else {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void packDirectory(Path directory, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                out.putNextEntry(new JarEntry(directory.relativize(file).toString().replace(File.separatorChar, '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
    }

    /**
     * {@code cq tail -f} as an operator starts it ({@code java -jar cq.jar}, or with {@code -XX:AOTCache} as
     * {@code bin/cq} does), on a queue holding one message: nanoseconds from just before the process is launched to
     * its first line on stdout, the moment it is following the queue. The process is then stopped.
     *
     * @param aotCache an AOT cache trained by {@link #trainCliAotCache}, or null for the JVM's defaults
     */
    public static long cliTailReady(Path cliJar, Path queue, Path aotCache) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        if (aotCache != null) {
            command.addAll(List.of("-XX:AOTCache=" + aotCache, "-Xlog:aot=off", "-Xlog:cds=off"));
        }
        command.addAll(List.of("-jar", cliJar.toString(), "tail", "-f", queue.toString()));
        long launched = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = out.readLine();
            long ready = System.nanoTime() - launched;
            if (line == null) {
                throw new IllegalStateException("cq tail printed nothing: " + command);
            }
            return ready;
        } finally {
            process.destroy();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * Writes one message to a new queue with {@code cq write --create}, as {@code bin/cq} does before it trains its
     * cache, and returns the queue.
     */
    public static Path cliQueue(Path cliJar, Path directory) throws Exception {
        Path queue = directory.resolve("tail-queue");
        Process write = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-jar",
                cliJar.toString(), "write", "--create", queue.toString(), "onOrder")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        write.getOutputStream().write("[\"AAPL\", 100]\n".getBytes(StandardCharsets.UTF_8));
        write.getOutputStream().close();
        if (!write.waitFor(60, TimeUnit.SECONDS) || write.exitValue() != 0) {
            throw new IllegalStateException("cq write failed for " + queue);
        }
        return queue;
    }

    /** The AOT cache {@code bin/cq} trains: one run of {@code cq tail} on a small queue. */
    public static Path trainCliAotCache(Path cliJar, Path queue, Path workDirectory) throws Exception {
        Path cache = workDirectory.resolve("cq-cli.aot");
        Process training = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(),
                "-XX:AOTCacheOutput=" + cache, "-Xlog:aot=error", "-jar", cliJar.toString(), "tail", queue.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!training.waitFor(120, TimeUnit.SECONDS) || !Files.isRegularFile(cache)) {
            throw new IllegalStateException("the JVM wrote no AOT cache for cq tail at " + cache);
        }
        return cache;
    }

    private static Result run(String implementation, Path directory, List<String> jvmArgs, String classPath,
                              ProcessBuilder.Redirect errors) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", classPath, FirstExcerpt.class.getName(), implementation, directory.toString()));
        long launched = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectError(errors).start();
        String line;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            line = out.readLine();
        }
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0 || line == null) {
            throw new IllegalStateException(implementation + " start-up run failed: " + line);
        }
        String[] parts = line.split(" ");
        long main = Long.parseLong(parts[1]);
        long appended = Long.parseLong(parts[3]);
        return new Result(appended - launched, appended - main);
    }
}
