package io.cq.docs.context;

import io.cq.core.MappedQueue;

public final class AuditTrail {
    private final MappedQueue queue;

    public AuditTrail(MappedQueue queue) {
        this.queue = queue;
    }

    public void login(String user) {
        queue.acquireAppender().writeText("login " + user);
    }
}
