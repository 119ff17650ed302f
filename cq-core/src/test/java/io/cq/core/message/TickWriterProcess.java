package io.cq.core.message;

import io.cq.core.MappedQueue;
import io.cq.core.message.BytesMessageAllocationTest.Tick;
import io.cq.core.message.BytesMessageAllocationTest.Ticks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * The other JVM of {@link BytesMessageAllocationTest}: {@code <dir>} writes ticks through a method writer, a pause
 * every 64, until a line arrives on its standard input (or a minute has passed), so that a reader in another
 * process keeps meeting records being written.
 */
public final class TickWriterProcess {
    private static volatile boolean stopped;

    private TickWriterProcess() {
    }

    public static void main(String[] args) {
        Thread stop = new Thread(() -> {
            try {
                System.in.read();
            } catch (IOException ignored) {
                // the parent is gone: stop as well
            }
            stopped = true;
        });
        stop.setDaemon(true);
        stop.start();
        long end = System.nanoTime() + 60_000_000_000L;
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build()) {
            Ticks writer = Messages.methodWriter(queue.acquireAppender(), Ticks.class);
            Tick tick = new Tick();
            System.out.println("writing");
            for (long i = 0; !stopped && System.nanoTime() < end; i++) {
                tick.instrument = i;
                writer.tick(tick);
                if ((i & 63) == 0) {
                    // Pacing, not waiting for anything: a writer about as fast as the reader leaves it meeting
                    // records still being written, the case under test.
                    LockSupport.parkNanos(50_000);
                }
            }
        }
    }
}
