package io.cq.spring.listener;

import java.time.Instant;

import io.cq.spring.listener.invoke.ListenerMethodInvoker;

/**
 * One {@link QueueListener} method with its attributes resolved (placeholders replaced, defaults applied where the
 * annotation leaves them to the container factory).
 *
 * @param id               the listener's id and named tailer
 * @param queueName        the queue it reads
 * @param invoker          calls the method
 * @param autoStartup      true or false, or null for the factory's default
 * @param errorHandlerBean bean name of its error handler, or empty for the factory's default
 * @param idleStrategy     idle strategy alias, or empty for the factory's default
 * @param startPosition    where it starts without a committed position
 * @param startIndex       the index for {@link StartPosition#INDEX}
 * @param startTime        the instant for {@link StartPosition#TIME}, or null
 */
public record ListenerEndpoint(String id, String queueName, ListenerMethodInvoker invoker, Boolean autoStartup,
                               String errorHandlerBean, String idleStrategy, StartPosition startPosition,
                               long startIndex, Instant startTime) {
}
