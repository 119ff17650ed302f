package io.cq.benchmarks.contended;

import org.HdrHistogram.Histogram;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Writer JVMs of the contention harnesses: started with the suite's flags and class path, read line by line. */
final class WriterJvms {
    private WriterJvms() {
    }

    /** Starts {@code main} with {@code args}; its standard error goes to {@code stderr}. */
    static Process start(List<String> jvmArgs, Class<?> main, ProcessBuilder.Redirect stderr, String... args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectError(stderr).start();
    }

    /** Reads until a line that starts with {@code prefix}; fails if the JVM ends first. */
    static String expect(BufferedReader output, String prefix) throws IOException {
        for (String line = output.readLine(); line != null; line = output.readLine()) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new IllegalStateException("a writer JVM ended before printing '" + prefix + "'");
    }

    /** What the threads of one writer JVM measured, together: every time, from the first start to the last end. */
    record Merged(Histogram histogram, long start, long end) {
        static Merged of(Histogram[] histograms, long[] starts, long[] ends) {
            Histogram merged = new Histogram(3);
            long start = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (int t = 0; t < histograms.length; t++) {
                merged.add(histograms[t]);
                start = Math.min(start, starts[t]);
                end = Math.max(end, ends[t]);
            }
            return new Merged(merged, start, end);
        }
    }
}
