package io.cq.spring.actuate;

import io.cq.spring.actuate.QueueDescriptor.ListenerDescriptor;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.EndpointWebExtension;

/**
 * The {@code queues} endpoint over HTTP: a write operation for a listener that does not exist answers 404, where the
 * technology-neutral endpoint has only "no content" to say.
 */
@EndpointWebExtension(endpoint = QueuesEndpoint.class)
public final class QueuesEndpointWebExtension {
    private final QueuesEndpoint endpoint;

    public QueuesEndpointWebExtension(QueuesEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** As {@link QueuesEndpoint#listener}, with 404 for an unknown queue or listener. */
    @WriteOperation
    public WebEndpointResponse<ListenerDescriptor> listener(@Selector String name, @Selector String listener,
                                                            String action, @Nullable Long index) {
        ListenerDescriptor state = endpoint.listener(name, listener, action, index);
        return state == null ? new WebEndpointResponse<>(WebEndpointResponse.STATUS_NOT_FOUND)
                : new WebEndpointResponse<>(state);
    }
}
