package io.cq.spring.console;

import io.cq.core.MappedQueue;
import io.cq.spring.actuate.QueueDescriptor;
import io.cq.spring.actuate.QueueDescriptor.ListenerDescriptor;
import io.cq.spring.actuate.QueuesEndpoint;
import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;

import java.security.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the console's page asks for, answered through the {@code queues} endpoint wherever the endpoint has the
 * answer, so that both show the same figures and hide the same values ({@code show-values}, {@code roles}), and
 * pause, resume and seek do the same. Thread-safe.
 */
public final class ConsoleApi {
    private final Map<String, MappedQueue> queues;
    private final QueuesEndpoint endpoint;
    private final ConsoleCharts charts;
    private final ConsoleSettings settings;
    private final ExcerptPages pages;
    private final CsrfGuard guard = new CsrfGuard();

    public ConsoleApi(Map<String, MappedQueue> queues, QueuesEndpoint endpoint, ConsoleCharts charts,
                      ConsoleSettings settings) {
        this.queues = new TreeMap<>(queues);
        this.endpoint = endpoint;
        this.charts = charts;
        this.settings = settings;
        this.pages = new ExcerptPages(settings.pageSize(), settings.displayLimit());
    }

    /**
     * Everything the page shows but excerpts, read anew on each call.
     *
     * @param writable         whether the page may offer write actions; they need the token
     * @param token            the token write actions send ({@link CsrfGuard}), or null when read-only
     * @param springSecurity   Spring Security's CSRF header and token for this session, or null
     * @param refreshMillis    how often the page asks again
     * @param pageSize         most excerpts a page of the browser holds
     * @param queues           every queue
     * @param charts           listeners' and adapters' rates and lag over the last minutes
     * @param chartsUnavailable why there are no charts, or null
     * @param time             when these figures were read
     * @param serverMillis     how long reading them took in the application
     */
    public record Overview(boolean writable, @Nullable String token, @Nullable Map<String, String> springSecurity,
                           long refreshMillis, int pageSize, List<QueueView> queues, List<ConsoleCharts.Series> charts,
                           @Nullable String chartsUnavailable, Instant time, double serverMillis) {
    }

    Overview overview(HttpServletRequest request) {
        long started = System.nanoTime();
        Map<String, QueueDescriptor> described = endpoint.queues(securityContext(request));
        List<QueueView> views = new ArrayList<>(described.size());
        described.forEach((name, descriptor) -> views.add(QueueView.of(name, queues.get(name), descriptor,
                settings.deadLetterQueues().contains(name))));
        return new Overview(settings.writable(), settings.writable() ? guard.token() : null,
                CsrfGuard.springSecurityToken(request), settings.refreshInterval().toMillis(), settings.pageSize(),
                views, charts.series(), charts.unavailable(), Instant.now(), (System.nanoTime() - started) / 1e6);
    }

    /**
     * A page of excerpts of a queue; null when there is no such queue. The queue's directory, which cq's errors about
     * damaged excerpts name, is hidden there as the endpoint hides it.
     */
    ExcerptPages.@Nullable Page page(String name, ExcerptPages.Request request, HttpServletRequest http) {
        MappedQueue queue = queues.get(name);
        if (queue == null) {
            return null;
        }
        boolean show = settings.showValues().isShown(securityContext(http), settings.roles());
        return pages.read(name, queue, request, settings.deadLetterQueues().contains(name), show);
    }

    /** Why a write request is refused, or null. */
    @Nullable String refusal(HttpServletRequest request) {
        return guard.refusal(request);
    }

    /**
     * Pauses, resumes or moves a listener as {@code POST /actuator/queues/{name}/{listener}} does.
     *
     * @return its state afterwards, or null when the queue has no such listener
     */
    @Nullable ListenerDescriptor act(String queue, String listener, String action, @Nullable Long index) {
        return endpoint.listener(queue, listener, action, index);
    }

    /** What the console runs with. */
    public ConsoleSettings settings() {
        return settings;
    }

    /** The reader as Boot's own servlet endpoints see them: the request's principal and roles. */
    private static SecurityContext securityContext(HttpServletRequest request) {
        return new SecurityContext() {
            @Override
            public @Nullable Principal getPrincipal() {
                return request.getUserPrincipal();
            }

            @Override
            public boolean isUserInRole(String role) {
                return request.isUserInRole(role);
            }
        };
    }
}
