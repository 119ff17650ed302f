package io.cq.benchmarks.startup;

import io.cq.benchmarks.QueueDriver;

import java.nio.file.Path;

/**
 * A whole process whose only job is to open a new queue and append one excerpt, then print the
 * {@link System#nanoTime()} of main's start and of the append, and exit. The implementation {@code none}
 * appends nothing: the floor that the JVM itself sets.
 */
public final class FirstExcerpt {
    private FirstExcerpt() {
    }

    public static void main(String[] args) {
        long mainStarted = System.nanoTime();
        long appended;
        if (args[0].equals(StartupHarness.NO_QUEUE)) {
            System.out.println("main " + mainStarted + " appended " + System.nanoTime());
            return;
        }
        try (QueueDriver driver = QueueDriver.open(args[0], Path.of(args[1]))) {
            driver.append(42, new byte[40]);
            appended = System.nanoTime();
        }
        System.out.println("main " + mainStarted + " appended " + appended);
    }
}
