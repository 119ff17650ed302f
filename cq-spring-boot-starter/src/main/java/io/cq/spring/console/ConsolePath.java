package io.cq.spring.console;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.EndpointsSupplier;
import org.springframework.boot.actuate.endpoint.ExposableEndpoint;
import org.springframework.boot.actuate.endpoint.Operation;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoint;

import java.util.Collection;
import java.util.List;

/**
 * The console's path, made known to Boot among the Actuator's paths ({@code PathMappedEndpoints}) when it lies under
 * the Actuator's base path, so that a Spring Security rule written for the Actuator covers it as it covers the
 * {@code queues} endpoint: {@code EndpointRequest.toAnyEndpoint()}, or {@code EndpointRequest.to("queues",
 * "queuesconsole")}. It adds no endpoint: Boot maps no operation of it, and it is not listed under
 * {@code /actuator}.
 */
public final class ConsolePath implements EndpointsSupplier<ConsolePath.Endpoint> {
    /** The id rules name the console by (Boot warns about ids with dashes). */
    public static final EndpointId ID = EndpointId.of("queuesconsole");

    private final List<Endpoint> endpoints;

    private ConsolePath(List<Endpoint> endpoints) {
        this.endpoints = endpoints;
    }

    /**
     * The console's path among the Actuator's when it is under its base path; none when it is elsewhere, where rules
     * for its path must name it.
     *
     * @param basePath    the Actuator's base path ({@code management.endpoints.web.base-path})
     * @param consolePath the console's path
     */
    public static ConsolePath of(String basePath, String consolePath) {
        return consolePath.startsWith(basePath + "/")
                ? new ConsolePath(List.of(new Endpoint(consolePath.substring(basePath.length() + 1))))
                : new ConsolePath(List.of());
    }

    @Override
    public Collection<Endpoint> getEndpoints() {
        return endpoints;
    }

    /** The console as a path-mapped endpoint without operations. */
    public record Endpoint(String rootPath) implements ExposableEndpoint<Operation>, PathMappedEndpoint {
        @Override
        public EndpointId getEndpointId() {
            return ID;
        }

        @Override
        public Access getDefaultAccess() {
            return Access.READ_ONLY;
        }

        @Override
        public Collection<Operation> getOperations() {
            return List.of();
        }

        @Override
        public String getRootPath() {
            return rootPath;
        }
    }
}
