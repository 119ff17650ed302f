package io.cq.spring.actuate;

import io.cq.core.MappedQueue;
import io.cq.spring.actuate.QueueDescriptor.ListenerDescriptor;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.listener.QueueListenerContainer;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code /actuator/queues}: every queue bean with its indexes, files, named tailers, listeners and Spring
 * Integration adapters;
 * {@code /actuator/queues/{name}} for one. {@code POST /actuator/queues/{name}/{listener}} with
 * {@code {"action": "pause"}} (or resume, start, stop, seek-to-start, seek-to-end, seek-to-index with
 * {@code "index"}) controls a listener; write access is off unless {@code
 * management.endpoint.queues.access=unrestricted}.
 *
 * <p>Paths, process ids and host names are shown as Spring Boot shows values in its {@code env} and
 * {@code configprops} endpoints: never (the default), to authorized users in the configured roles, or always
 * ({@code management.endpoint.queues.show-values} and {@code roles}); otherwise they read {@value
 * QueueDescriptor#HIDDEN}.
 */
@Endpoint(id = "queues", defaultAccess = Access.READ_ONLY)
public final class QueuesEndpoint {
    private static final long SEEK_TIMEOUT_SECONDS = 10;

    private final Map<String, MappedQueue> queues;
    private final @Nullable ListenerContainerRegistry registry;
    private final @Nullable QueueAdapters adapters;
    private final Show showValues;
    private final Set<String> roles;

    /** An endpoint that never shows paths, process ids or host names. */
    public QueuesEndpoint(Map<String, MappedQueue> queues, @Nullable ListenerContainerRegistry registry) {
        this(queues, registry, null, Show.NEVER, Set.of());
    }

    /**
     * @param adapters   the Spring Integration adapters to list beside the listeners, or null
     * @param showValues when paths, process ids and host names are shown
     * @param roles      the roles that may see them when {@code showValues} is {@link Show#WHEN_AUTHORIZED}; empty
     *                   means any authenticated user
     */
    public QueuesEndpoint(Map<String, MappedQueue> queues, @Nullable ListenerContainerRegistry registry,
                          @Nullable QueueAdapters adapters, Show showValues, Set<String> roles) {
        this.queues = new TreeMap<>(queues);
        this.registry = registry;
        this.adapters = adapters;
        this.showValues = showValues;
        this.roles = Set.copyOf(roles);
    }

    @ReadOperation
    public Map<String, QueueDescriptor> queues(SecurityContext securityContext) {
        boolean show = showValues.isShown(securityContext, roles);
        Map<String, QueueDescriptor> all = new TreeMap<>();
        queues.forEach((name, queue) -> all.put(name, QueueInspector.describe(queue, containers(), adapters, show)));
        return all;
    }

    @ReadOperation
    public @Nullable QueueDescriptor queue(SecurityContext securityContext, @Selector String name) {
        MappedQueue queue = queues.get(name);
        return queue == null ? null
                : QueueInspector.describe(queue, containers(), adapters, showValues.isShown(securityContext, roles));
    }

    /** Controls one listener of a queue and returns its state afterwards. */
    @WriteOperation
    public @Nullable ListenerDescriptor listener(@Selector String name, @Selector String listener, String action,
                                                 @Nullable Long index) {
        QueueListenerContainer container = containers().stream()
                .filter(c -> c.id().equals(listener) && c.queueName().equals(name)).findFirst().orElse(null);
        if (container == null) {
            return null;
        }
        switch (action) {
            case "pause" -> container.pause();
            case "resume" -> container.resume();
            case "start" -> container.start();
            case "stop" -> container.stop();
            case "seek-to-start" -> await(container, container.seekToStart(), "the start");
            case "seek-to-end" -> await(container, container.seekToEnd(), "the end");
            case "seek-to-index" -> {
                if (index == null) {
                    throw new InvalidEndpointRequestException("seek-to-index needs an \"index\"", "missing index");
                }
                await(container, container.seekToIndex(index), "index " + index);
            }
            default -> throw new InvalidEndpointRequestException("unknown action '" + action + "'; use pause, resume, "
                    + "start, stop, seek-to-start, seek-to-end or seek-to-index", "unknown action");
        }
        return QueueInspector.describe(container);
    }

    /** A stopped container applies a seek when it starts again; a running one within moments. */
    private static void await(QueueListenerContainer container, CompletableFuture<Boolean> seek, String target) {
        if (!container.isRunning()) {
            return;
        }
        try {
            if (!seek.get(SEEK_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new InvalidEndpointRequestException("queue '" + container.queueName() + "' has no excerpt at "
                        + target, "no such excerpt");
            }
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("listener '" + container.id() + "' did not move to " + target + ": " + e,
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while moving listener '" + container.id() + "'", e);
        }
    }

    private Collection<QueueListenerContainer> containers() {
        return registry == null ? List.of() : registry.containers();
    }
}
