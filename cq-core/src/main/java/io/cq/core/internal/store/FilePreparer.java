package io.cq.core.internal.store;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One background thread per JVM, started on first use and stopped after a minute idle, that grows and maps
 * cycle files ahead of their appenders. It only does slow-path file work; a queue never depends on it for
 * correctness.
 */
final class FilePreparer {
    private static final ThreadPoolExecutor EXECUTOR = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), task -> {
                Thread thread = new Thread(task, "cq-file-preparer");
                thread.setDaemon(true);
                return thread;
            });

    static {
        EXECUTOR.allowCoreThreadTimeOut(true);
    }

    private FilePreparer() {
    }

    static void submit(Runnable task) {
        EXECUTOR.execute(task);
    }
}
