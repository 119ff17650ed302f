/**
 * Reading a queue into a flow: the message-driven {@link io.cq.integration.inbound.QueueInboundChannelAdapter}
 * and the polled {@link io.cq.integration.inbound.QueueMessageSource}, both at least once through a named tailer.
 */
package io.cq.integration.inbound;
