package io.cq.integration.dsl;

import io.cq.core.MappedQueue;
import io.cq.integration.channel.DurableQueueChannel;
import org.springframework.integration.dsl.MessageChannelSpec;

/** Configures a {@link DurableQueueChannel}; its {@code id} names the channel and, by default, its tailer. */
public final class DurableQueueChannelSpec extends MessageChannelSpec<DurableQueueChannelSpec, DurableQueueChannel> {

    DurableQueueChannelSpec(MappedQueue queue) {
        this.channel = new DurableQueueChannel(queue);
    }

    /** The channel's bean name. */
    @Override
    public DurableQueueChannelSpec id(String id) {
        return super.id(id);
    }

    /** See {@link DurableQueueChannel#setConsumerName(String)}. */
    public DurableQueueChannelSpec consumerName(String consumerName) {
        this.channel.setConsumerName(consumerName);
        return this;
    }

    /** See {@link DurableQueueChannel#setPayloadType(Class)}. */
    public DurableQueueChannelSpec payloadType(Class<?> payloadType) {
        this.channel.setPayloadType(payloadType);
        return this;
    }
}
