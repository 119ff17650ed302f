package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Child-JVM main: appends self-checking excerpts at a steady pace until a line {@code stop} (or the end of its
 * standard input) comes, then prints "done N W", N being the number of excerpts it appended and W the longest it
 * waited for the write lock, in microseconds: with writers killed while they hold it, how long a dead holder held
 * the queue up.
 */
public final class SteadyWriter {
    private SteadyWriter() {
    }

    public static void main(String[] args) {
        int writer = Integer.parseInt(args[1]);
        long pauseNanos = Long.parseLong(args[2]) * 1_000;
        Thread stopper = Thread.ofPlatform().daemon().start(SteadyWriter::awaitStop);
        int count = 0;
        long longestWait = 0;
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).blockSize(1 << 20).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            System.out.println("ready");
            for (; stopper.isAlive(); count++) {
                long asked = System.nanoTime();
                try (WriteContext dc = appender.writingDocument()) {
                    long waited = System.nanoTime() - asked;
                    longestWait = Math.max(longestWait, waited);
                    Excerpts.writeFirstHalf(dc.bytes(), writer, count);
                    Excerpts.writeSecondHalf(dc.bytes(), writer, count);
                }
                LockSupport.parkNanos(pauseNanos);
            }
        }
        System.out.println("done " + count + " " + longestWait / 1_000);
    }

    /** Returns when standard input says {@code stop} or ends. */
    private static void awaitStop() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null && !line.equals("stop"); line = in.readLine()) {
                // anything else is not for this writer
            }
        } catch (IOException e) {
            // the parent is gone: stop as well
        }
    }
}
