package io.cq.spring.boot.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * Defaults of request/reply (docs/spring-boot.md, "Request/reply"), under {@code cq.request-reply}: where
 * {@code QueueTemplate.sendAndReceive} and {@code @QueueWriter} methods returning futures read their replies, and
 * how long they wait. A request may name its own.
 */
@ConfigurationProperties("cq.request-reply")
public class RequestReplyProperties {

    /**
     * The configured queue (a key of cq.queues) that replies are read from when a request names none, and that
     * requests name in their cq_reply_to header. Unset, each request must name one.
     */
    private @Nullable String replyQueue;

    /** How long a request waits for its reply before its future completes with a ReplyTimeoutException. */
    private Duration timeout = Duration.ofSeconds(5);

    public @Nullable String getReplyQueue() {
        return replyQueue;
    }

    public void setReplyQueue(@Nullable String replyQueue) {
        this.replyQueue = replyQueue;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }
}
