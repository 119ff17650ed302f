package io.cq.spring.config;

import io.cq.spring.listener.QueueListenerContainer;
import org.springframework.context.SmartLifecycle;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The application's listener containers by listener id: starts those with auto-startup when the context has
 * refreshed, stops them all when it closes (before the queues close: queues are closed as beans are destroyed,
 * after every lifecycle has stopped), and lets operators start, stop, pause, resume and seek any of them.
 * Thread-safe.
 */
public final class ListenerContainerRegistry implements SmartLifecycle {
    /** Late start and early stop: listeners run only while everything they may call is up. */
    public static final int PHASE = QueueListenerContainer.PHASE;

    private final Map<String, QueueListenerContainer> containers = new ConcurrentHashMap<>();
    private volatile boolean running;

    /**
     * Adds a container; when the registry already runs (a listener bean created late), an auto-startup container
     * starts at once.
     *
     * @throws IllegalStateException when another listener has the same id
     */
    public void register(QueueListenerContainer container) {
        QueueListenerContainer previous = containers.putIfAbsent(container.id(), container);
        if (previous != null) {
            throw new IllegalStateException("two @QueueListener methods have id '" + container.id() + "': "
                    + previous.endpoint().invoker() + " and " + container.endpoint().invoker()
                    + "; an id names the listener's position in its queue and must be unique");
        }
        if (running && container.isAutoStartup()) {
            container.start();
        }
    }

    /** Every container, in no particular order. */
    public Collection<QueueListenerContainer> containers() {
        return List.copyOf(containers.values());
    }

    /**
     * The container of a listener.
     *
     * @throws IllegalArgumentException naming the known ids when there is none with this id
     */
    public QueueListenerContainer container(String id) {
        QueueListenerContainer container = containers.get(id);
        if (container == null) {
            throw new IllegalArgumentException("no listener with id '" + id + "'; the listeners are "
                    + containers.keySet());
        }
        return container;
    }

    /** Starts a listener (again); one stopped by an error resumes on the excerpt it failed on. */
    public void start(String id) {
        container(id).start();
    }

    /** Stops a listener after the excerpt in hand; see {@link QueueListenerContainer#stop()}. */
    public void stop(String id) {
        container(id).stop();
    }

    /** Pauses a listener; see {@link QueueListenerContainer#pause()}. */
    public void pause(String id) {
        container(id).pause();
    }

    /** Resumes a paused listener. */
    public void resume(String id) {
        container(id).resume();
    }

    /** Moves a listener onto an excerpt; see {@link QueueListenerContainer#seekToIndex(long)}. */
    public CompletableFuture<Boolean> seekToIndex(String id, long index) {
        return container(id).seekToIndex(index);
    }

    /** Moves a listener before the first excerpt; see {@link QueueListenerContainer#seekToStart()}. */
    public CompletableFuture<Boolean> seekToStart(String id) {
        return container(id).seekToStart();
    }

    /** Moves a listener after the last excerpt; see {@link QueueListenerContainer#seekToEnd()}. */
    public CompletableFuture<Boolean> seekToEnd(String id) {
        return container(id).seekToEnd();
    }

    @Override
    public void start() {
        running = true;
        containers.values().stream().filter(QueueListenerContainer::isAutoStartup)
                .forEach(QueueListenerContainer::start);
    }

    /** Stops all containers; each finishes its excerpt in hand. */
    @Override
    public void stop() {
        running = false;
        containers.values().forEach(QueueListenerContainer::stop);
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
