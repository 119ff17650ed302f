package io.cq.spring.boot.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The web console (docs/console.md), under {@code cq.console}: off unless enabled, served where the Actuator is,
 * behind the {@code queues} endpoint's access rules.
 */
@ConfigurationProperties("cq.console")
public class ConsoleProperties {

    /**
     * Whether to serve the web console. Off by default: the starter then registers no bean, route or static resource
     * for it. It also needs the queues endpoint exposed over HTTP (management.endpoints.web.exposure.include).
     */
    private boolean enabled;

    /**
     * Path of the console on the server that serves the Actuator (the application's, or management.server.port's).
     * Unset, it is "queues-console" under the Actuator's base path: /actuator/queues-console.
     */
    private @Nullable String path;

    /** Most excerpts the excerpt browser reads for one page (1 to 500). */
    private int pageSize = 50;

    /**
     * Longest rendering of one excerpt sent to the page, in characters (hex takes two a byte); a longer one is cut and
     * says how much is left.
     */
    private int displayLimit = 4096;

    /** How often an open console asks for new figures. */
    private Duration refreshInterval = Duration.ofSeconds(2);

    /**
     * How far back the charts of listener and adapter rates and lag go; the meters are read 120 times in this
     * window (every 5 seconds for the default).
     */
    private Duration chartWindow = Duration.ofMinutes(10);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public @Nullable String getPath() {
        return path;
    }

    public void setPath(@Nullable String path) {
        this.path = path;
    }

    public int getPageSize() {
        return pageSize;
    }

    public void setPageSize(int pageSize) {
        this.pageSize = pageSize;
    }

    public int getDisplayLimit() {
        return displayLimit;
    }

    public void setDisplayLimit(int displayLimit) {
        this.displayLimit = displayLimit;
    }

    public Duration getRefreshInterval() {
        return refreshInterval;
    }

    public void setRefreshInterval(Duration refreshInterval) {
        this.refreshInterval = refreshInterval;
    }

    public Duration getChartWindow() {
        return chartWindow;
    }

    public void setChartWindow(Duration chartWindow) {
        this.chartWindow = chartWindow;
    }
}
