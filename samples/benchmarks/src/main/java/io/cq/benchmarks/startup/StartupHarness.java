package io.cq.benchmarks.startup;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Time to the first appended excerpt: from just before the process is started to its append (the whole JVM
 * start counted), and from the start of {@code main()} to the append.
 */
public final class StartupHarness {
    /** One run, in nanoseconds. */
    public record Result(long processToFirstExcerpt, long mainToFirstExcerpt) {
    }

    private StartupHarness() {
    }

    public static Result run(String implementation, Path directory, List<String> jvmArgs) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), FirstExcerpt.class.getName(),
                implementation, directory.toString()));
        long launched = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String line;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
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
