package io.cq.core.internal.system;

/**
 * A task run at most once per JVM, on a daemon thread of its own, for set-up that a JVM needs once and that nothing
 * should wait for (linking the native functions, the JDK's memory-access machinery). Not on {@link BackgroundWork}'s
 * thread: a queue that closes waits for that thread's tasks, and this work belongs to no queue.
 */
public final class OnceInBackground {
    private final String threadName;
    private final Runnable task;
    private volatile boolean started;

    /** @param task a class, not a lambda, where it runs on the start-up path: the first lambda of a JVM costs a
     *             code generation of its own */
    public OnceInBackground(String threadName, Runnable task) {
        this.threadName = threadName;
        this.task = task;
    }

    /** Starts the task unless it was started before; returns at once. */
    public void start() {
        if (!started) {
            startOnce();
        }
    }

    private synchronized void startOnce() {
        if (started) {
            return;
        }
        started = true;
        Thread thread = new Thread(task, threadName);
        thread.setDaemon(true);
        thread.start();
    }
}
