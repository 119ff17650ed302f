package io.cq.spring.boot.autoconfigure;

import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Settings of the {@code queues} endpoint beyond Boot's own ({@code management.endpoint.queues.access}), the same
 * two that Boot's {@code env} and {@code configprops} endpoints have.
 */
@ConfigurationProperties("management.endpoint.queues")
public class QueuesEndpointProperties {

    /**
     * When to show the queues' directories, and the process ids and host names of writers and named-tailer holders:
     * never, when-authorized (to an authenticated user in one of the roles) or always. Hidden values read "******"
     * (a writer's pid, a number, reads null).
     */
    private Show showValues = Show.NEVER;

    /**
     * Roles that may see the hidden values when show-values is when-authorized; empty lets any authenticated user
     * see them.
     */
    private Set<String> roles = new LinkedHashSet<>();

    public Show getShowValues() {
        return showValues;
    }

    public void setShowValues(Show showValues) {
        this.showValues = showValues;
    }

    public Set<String> getRoles() {
        return roles;
    }

    public void setRoles(Set<String> roles) {
        this.roles = roles;
    }
}
