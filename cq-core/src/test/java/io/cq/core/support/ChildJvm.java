package io.cq.core.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A second JVM running a main class from the test class path, with the same JDK. Its standard output is
 * collected line by line so a test can wait for what the child says.
 */
public final class ChildJvm implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> transcript = new ArrayList<>();
    private final Thread reader;

    private ChildJvm(Process process) {
        this.process = process;
        reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    synchronized (transcript) {
                        transcript.add(line);
                    }
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the child is gone; what it printed is kept
            }
        }, "child-jvm-output-" + process.pid());
        reader.setDaemon(true);
        reader.start();
    }

    public static ChildJvm start(Class<?> mainClass, String... args) throws IOException {
        return start(List.of(), mainClass, args);
    }

    /** As {@link #start(Class, String...)}, with extra JVM options (e.g. {@code -Xlog:class+load}). */
    public static ChildJvm start(List<String> jvmOptions, Class<?> mainClass, String... args) throws IOException {
        return start(true, jvmOptions, mainClass, args);
    }

    /**
     * As {@link #start(Class, String...)}, with or without native access for cq: without it is how a plain
     * {@code java -jar app.jar} runs, and cq must be as safe there.
     */
    public static ChildJvm start(boolean nativeAccess, List<String> jvmOptions, Class<?> mainClass, String... args)
            throws IOException {
        return start(0, nativeAccess, jvmOptions, mainClass, args);
    }

    /**
     * As {@link #start(boolean, List, Class, String...)}, at a lower scheduling priority ({@code nice -n niceness},
     * where the machine has {@code nice}; the JVM replaces it, so the process is still the JVM): for children whose
     * start-up would otherwise take the CPU from what a test measures.
     */
    public static ChildJvm start(int niceness, boolean nativeAccess, List<String> jvmOptions, Class<?> mainClass,
                                 String... args) throws IOException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>();
        if (niceness != 0 && Files.isExecutable(Path.of("/usr/bin/nice"))) {
            command.addAll(List.of("/usr/bin/nice", "-n", Integer.toString(niceness)));
        }
        command.addAll(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        if (nativeAccess) {
            command.add("--enable-native-access=ALL-UNNAMED");
        }
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass.getName()));
        command.addAll(List.of(args));
        return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
    }

    /**
     * Runs a main class to its end, with or without native access, and answers every line it printed; fails with
     * what it printed unless it exits with 0 within two minutes.
     */
    public static List<String> runToEnd(boolean nativeAccess, Class<?> mainClass, String... args)
            throws IOException, InterruptedException {
        return runToEnd(nativeAccess, List.of(), mainClass, args);
    }

    /** As {@link #runToEnd(boolean, Class, String...)}, with extra JVM options. */
    public static List<String> runToEnd(boolean nativeAccess, List<String> jvmOptions, Class<?> mainClass,
                                        String... args) throws IOException, InterruptedException {
        try (ChildJvm child = start(nativeAccess, jvmOptions, mainClass, args)) {
            int exit = child.awaitExit(120, TimeUnit.SECONDS);
            child.reader.join(TimeUnit.SECONDS.toMillis(30)); // the last lines, after the child has gone
            if (exit != 0) {
                throw new AssertionError(mainClass.getSimpleName() + " exited with " + exit + "; output:\n"
                        + child.transcript());
            }
            synchronized (child.transcript) {
                return List.copyOf(child.transcript);
            }
        }
    }

    /** Waits for a line that starts with {@code prefix}; fails with what the child printed if it never comes. */
    public String awaitLine(String prefix, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("child " + process.pid() + " did not print a line starting with '" + prefix
                        + "' within " + timeout + " " + unit + "; alive=" + process.isAlive() + ", output:\n"
                        + transcript());
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    /** Sends one line to the child's standard input. */
    public void send(String line) throws IOException {
        process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().flush();
    }

    public int awaitExit(long timeout, TimeUnit unit) throws InterruptedException {
        if (!process.waitFor(timeout, unit)) {
            throw new AssertionError("child " + process.pid() + " did not exit within " + timeout + " " + unit
                    + "; output:\n" + transcript());
        }
        return process.exitValue();
    }

    /** kill -9: the child gets no chance to clean up. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    public long pid() {
        return process.pid();
    }

    public String transcript() {
        synchronized (transcript) {
            return String.join("\n", transcript);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
