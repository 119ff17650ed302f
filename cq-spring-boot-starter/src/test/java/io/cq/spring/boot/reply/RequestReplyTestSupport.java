package io.cq.spring.boot.reply;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The settings every request/reply test application runs with: the queues of {@link QuoteApplication} and more. */
public final class RequestReplyTestSupport {
    private static final String[] QUEUES = {"quotes", "echo", "orders", "confirmations", "async-quotes", "silent",
            "audit", "audit-log", "replies"};

    private RequestReplyTestSupport() {
    }

    /** Queues under {@code dir}, replies read from "replies" within 20 s, two attempts per excerpt, and more. */
    public static String[] properties(Path dir, String... more) {
        List<String> properties = new ArrayList<>(List.of("cq.base-path=" + dir, "cq.request-reply.reply-queue=replies",
                "cq.request-reply.timeout=20s", "cq.listener.retry.max-attempts=2", "cq.listener.retry.interval=5ms"));
        for (String queue : QUEUES) {
            properties.add("cq.queues." + queue + ".roll-cycle=daily");
        }
        properties.addAll(List.of(more));
        return properties.toArray(String[]::new);
    }
}
