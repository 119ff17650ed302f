package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.core.ReplyReaders;
import io.cq.spring.support.InvalidQueuePropertyException;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

import java.time.Duration;
import java.util.Map;
import java.util.TreeSet;

/**
 * The queues of {@code cq.queues} as {@link MappedQueue} beans, a {@link QueueTemplate} over every MappedQueue
 * bean (the application's own ones included) with the reply readers of its request/reply, and a bean for every
 * {@code @QueueWriter} interface; both observe their sends with the application's {@link ObservationRegistry},
 * when it has one.
 */
@AutoConfiguration
@EnableConfigurationProperties({CqProperties.class, RequestReplyProperties.class})
@Import({QueueBeanRegistrar.class, QueueWriterRegistrar.class})
public final class CqAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MappedQueueOpener mappedQueueOpener(CqProperties properties,
            ObjectProvider<MappedQueueBuilderCustomizer> customizers) {
        return new MappedQueueOpener(properties, customizers.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    QueueTemplate queueTemplate(Map<String, MappedQueue> queues, ObjectProvider<ObservationRegistry> observations,
                                ReplyReaders replyReaders) {
        return new QueueTemplate(queues, observations.getIfAvailable(), replyReaders);
    }

    /** The reply readers of request/reply, with the defaults of cq.request-reply.*. */
    @Bean
    @ConditionalOnMissingBean
    ReplyReaders replyReaders(Map<String, MappedQueue> queues, RequestReplyProperties properties) {
        String replyQueue = properties.getReplyQueue();
        if (replyQueue != null && !queues.containsKey(replyQueue)) {
            throw new InvalidQueuePropertyException("cq.request-reply.reply-queue", replyQueue,
                    "requests read their replies from queue '" + replyQueue + "', which is not configured; the queues "
                            + "are " + new TreeSet<>(queues.keySet()),
                    "Set cq.request-reply.reply-queue to a queue configured under cq.queues (e.g. cq.queues."
                            + replyQueue + ".path), or configure that queue.", null);
        }
        Duration timeout = properties.getTimeout();
        if (timeout.isNegative() || timeout.isZero()) {
            throw new InvalidQueuePropertyException("cq.request-reply.timeout", timeout,
                    "a request must wait some time for its reply", "Set cq.request-reply.timeout to a positive "
                            + "duration, e.g. 5s.", null);
        }
        return new ReplyReaders(queues, replyQueue, timeout);
    }
}
