package io.cq.spring.listener;

import io.cq.core.StartPosition;
import io.cq.spring.listener.invoke.ListenerInvoker;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One listener: a {@link io.cq.spring.annotation.QueueListener} method with its attributes resolved (placeholders
 * replaced, defaults left to the container factory where the annotation leaves them empty), or a listener registered
 * programmatically with {@link io.cq.spring.config.QueueListenerContainerFactory#createContainer} and
 * {@link io.cq.spring.config.ListenerContainerRegistry#register}.
 *
 * @param id               the listener's id and named tailer
 * @param queueName        the queue it reads
 * @param invoker          hands each excerpt to the listener
 * @param autoStartup      true or false, or null for the factory's default
 * @param errorHandlerBean bean name of its error handler, or empty for the factory's default
 * @param idleStrategy     idle strategy alias, or empty for the factory's default
 * @param startPosition    where it starts without a committed position
 * @param startIndex       the index for {@link StartPosition.Kind#INDEX}
 * @param startTime        the instant for {@link StartPosition.Kind#TIME}, or null
 */
public record ListenerEndpoint(String id, String queueName, ListenerInvoker invoker, @Nullable Boolean autoStartup,
                               String errorHandlerBean, String idleStrategy, StartPosition.Kind startPosition,
                               long startIndex, @Nullable Instant startTime) {
}
