/** Writing a flow's messages to a queue: {@link io.cq.integration.outbound.QueueMessageHandler}. */
package io.cq.integration.outbound;
