/** A pollable channel whose messages live in a queue: {@link io.cq.integration.channel.DurableQueueChannel}. */
package io.cq.integration.channel;
