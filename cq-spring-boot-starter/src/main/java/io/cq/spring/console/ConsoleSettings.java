package io.cq.spring.console;

import org.springframework.boot.actuate.endpoint.Show;

import java.time.Duration;
import java.util.Set;

/**
 * What the console runs with, checked once ({@code cq.console.*} and the {@code queues} endpoint's access).
 *
 * @param path             where it is served, from the root of the server that serves the Actuator, without a
 *                         trailing slash
 * @param pageSize         most excerpts one page reads
 * @param displayLimit     longest rendering of one excerpt sent to the page, in characters
 * @param refreshInterval  how often the page asks for new figures
 * @param writable         whether the {@code queues} endpoint allows writes: only then may the console pause,
 *                         resume and move listeners
 * @param deadLetterQueues the queues whose excerpts are dead letters
 * @param showValues       when the queues' directories may be shown: the {@code queues} endpoint's setting, which
 *                         the console applies to what the endpoint does not say (cq's errors about excerpts)
 * @param roles            the roles that {@code showValues} {@link Show#WHEN_AUTHORIZED} asks for
 */
public record ConsoleSettings(String path, int pageSize, int displayLimit, Duration refreshInterval, boolean writable,
                              Set<String> deadLetterQueues, Show showValues, Set<String> roles) {
    /** Most excerpts a page may be set to. */
    public static final int MAX_PAGE_SIZE = 500;
    /** Shortest display limit: enough for a method name and the start of its arguments. */
    public static final int MIN_DISPLAY_LIMIT = 64;

    public ConsoleSettings {
        if (!path.startsWith("/") || path.endsWith("/") || path.contains("//") || path.contains("..")) {
            throw new IllegalArgumentException("cq.console.path=" + path + " must start with / and hold no empty, . or "
                    + ".. segment; e.g. /cq-console (unset: /actuator/queues-console)");
        }
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("cq.console.page-size=" + pageSize + " must be between 1 and "
                    + MAX_PAGE_SIZE);
        }
        if (displayLimit < MIN_DISPLAY_LIMIT) {
            throw new IllegalArgumentException("cq.console.display-limit=" + displayLimit + " must be at least "
                    + MIN_DISPLAY_LIMIT);
        }
        if (refreshInterval.toMillis() < 100) {
            throw new IllegalArgumentException("cq.console.refresh-interval=" + refreshInterval
                    + " must be at least 100ms");
        }
        deadLetterQueues = Set.copyOf(deadLetterQueues);
        roles = Set.copyOf(roles);
    }
}
