package io.cq.integration;

import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.core.message.ReplyErrorException;
import io.cq.core.message.ReplyTimeoutException;
import io.cq.integration.dsl.Cq;
import io.cq.integration.outbound.QueueRequestReplyGateway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.MessageTimeoutException;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandlingException;
import org.springframework.messaging.PollableChannel;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Request/reply between two flows over queues: the request-reply gateway asks, the inbound gateway answers. */
class RequestReplyGatewayTest {
    @TempDir
    Path dir;

    private MappedQueue pricing;
    private MappedQueue replies;
    private final List<Trade> priced = new CopyOnWriteArrayList<>();

    @BeforeEach
    void openQueues() {
        pricing = MappedQueue.builder(dir.resolve("pricing")).build();
        replies = MappedQueue.builder(dir.resolve("replies")).build();
    }

    @AfterEach
    void closeQueues() {
        pricing.close();
        replies.close();
    }

    /** Answers each trade with its price doubled; fails on symbol FAIL. */
    private IntegrationFlow pricer() {
        return IntegrationFlow.from(Cq.inboundGateway(pricing).id("pricer").payloadType(Trade.class)
                        .replyQueues(replies))
                .handle(Trade.class, (trade, headers) -> {
                    priced.add(trade);
                    if (trade.symbol().equals("FAIL")) {
                        throw new IllegalStateException("cannot price " + trade.symbol());
                    }
                    return new Trade(trade.symbol(), trade.quantity(), trade.price() * 2);
                })
                .get();
    }

    private IntegrationFlow requester(Duration timeout) {
        return IntegrationFlow.from("priceRequests")
                .handle(Cq.requestReplyGateway(pricing, replies).adapterId("price-requests")
                        .replyPayloadType(Trade.class).replyTimeout(timeout))
                .get();
    }

    private static Message<?> ask(AbstractApplicationContext context, Object payload) {
        return new MessagingTemplate().sendAndReceive(context.getBean("priceRequests", MessageChannel.class),
                MessageBuilder.withPayload(payload).setHeader("desk", "rates").build());
    }

    @Test
    void shouldProduceTheReplyOfTheInboundGatewaysFlow() {
        try (AbstractApplicationContext context = Flows.run(pricer(), requester(Duration.ofSeconds(20)))) {
            Message<?> reply = ask(context, new Trade("AAPL", 100, 189.25));

            assertThat(reply.getPayload()).isEqualTo(new Trade("AAPL", 100, 378.5));
            assertThat(reply.getHeaders()).containsEntry("desk", "rates").containsKey(CqHeaders.CORRELATION_ID);
            assertThat(priced).containsExactly(new Trade("AAPL", 100, 189.25));
            QueueAdapterRegistry registry = new QueueAdapterRegistry(context);
            assertThat(registry.adapter("pricer")).get().extracting(QueueAdapterInfo::kind)
                    .isEqualTo(QueueAdapterInfo.Kind.INBOUND_GATEWAY);
            // The pricer's named tailer persists its position when its read closes, which may be just after the
            // requester has the reply in hand.
            await().atMost(Duration.ofSeconds(20)).until(() -> registry.adapter("pricer").orElseThrow().lag() == 0);
            assertThat(registry.adapter("price-requests")).get().extracting(QueueAdapterInfo::processedCount)
                    .isEqualTo(1L);
        }
    }

    @Test
    void shouldFailWithTheErrorOfTheAnsweringFlowInsteadOfWaitingForTheTimeout() {
        try (AbstractApplicationContext context = Flows.run(pricer(), requester(Duration.ofMinutes(5)))) {
            long start = System.nanoTime();

            assertThatThrownBy(() -> ask(context, new Trade("FAIL", 1, 1.0)))
                    .isInstanceOf(MessageHandlingException.class)
                    .hasMessageContaining("cq request-reply gateway 'price-requests': cq inbound gateway 'pricer' "
                            + "failed on request ")
                    .hasMessageEndingWith(": java.lang.IllegalStateException: cannot price FAIL")
                    .cause().isInstanceOf(ReplyErrorException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
            assertThat(priced).as("answered once, not delivered again").hasSize(1);

            assertThat(ask(context, new Trade("IBM", 2, 10.0)).getPayload()).isEqualTo(new Trade("IBM", 2, 20.0));
        }
    }

    @Test
    void shouldReplyWithWhatTheErrorFlowReturnsWhenTheInboundGatewayHasAnErrorChannel() {
        IntegrationFlow pricerWithFallback = IntegrationFlow.from(Cq.inboundGateway(pricing).id("pricer")
                        .payloadType(Trade.class).replyQueues(replies).errorChannel("pricingErrors"))
                .handle(Trade.class, (trade, headers) -> {
                    throw new IllegalStateException("cannot price " + trade.symbol());
                })
                .get();
        IntegrationFlow fallback = IntegrationFlow.from("pricingErrors")
                .transform(error -> new Trade("FALLBACK", 0, 0.0))
                .get();
        try (AbstractApplicationContext context = Flows.run(pricerWithFallback, fallback,
                requester(Duration.ofSeconds(20)))) {
            assertThat(ask(context, new Trade("AAPL", 1, 1.0)).getPayload()).isEqualTo(new Trade("FALLBACK", 0, 0.0));
        }
    }

    @Test
    void shouldTimeOutWithAMessageTimeoutException() {
        try (AbstractApplicationContext context = Flows.run(requester(Duration.ofMillis(200)))) {
            assertThatThrownBy(() -> ask(context, new Trade("AAPL", 1, 1.0)))
                    .isInstanceOf(MessageTimeoutException.class)
                    .hasMessageContaining("no reply within 200 ms to request ")
                    .cause().isInstanceOf(ReplyTimeoutException.class);
        }
    }

    @Test
    void shouldKeepNoPendingRequestAfterATimeoutButCountItAsFailed() {
        try (AbstractApplicationContext context = Flows.run(requester(Duration.ofMillis(200)))) {
            assertThatThrownBy(() -> ask(context, new Trade("AAPL", 1, 1.0)))
                    .isInstanceOf(MessageTimeoutException.class);

            QueueRequestReplyGateway gateway = context.getBean(QueueRequestReplyGateway.class);
            assertThat(gateway.pendingCount()).isZero();
            assertThat(gateway.failedCount()).isEqualTo(1);
        }
    }

    @Test
    void shouldSendTheReplyToTheOutputChannelFromTheReplyReaderWhenAsync() {
        try (AbstractApplicationContext context = Flows.run(pricer(),
                IntegrationFlow.from("priceRequests")
                        .handle(Cq.requestReplyGateway(pricing, replies).replyPayloadType(Trade.class).async(true))
                        .channel(c -> c.queue("pricedTrades"))
                        .get())) {
            MessageChannel requests = context.getBean("priceRequests", MessageChannel.class);
            for (int i = 1; i <= 10; i++) {
                requests.send(MessageBuilder.withPayload(new Trade("T" + i, i, i)).build());
            }

            PollableChannel pricedTrades = context.getBean("pricedTrades", PollableChannel.class);
            List<Object> payloads = new CopyOnWriteArrayList<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                Message<?> message = pricedTrades.receive(0);
                if (message != null) {
                    payloads.add(message.getPayload());
                }
                return payloads.size() == 10;
            });
            assertThat(payloads).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 10)
                    .mapToObj(i -> new Trade("T" + i, i, 2.0 * i)).toList());
        }
    }

    @Test
    void shouldRunTheFlowForAnExcerptThatIsNoRequestAndDropItsReply() {
        try (AbstractApplicationContext context = Flows.run(pricer())) {
            Messages.writeObject(pricing.acquireAppender(), new Trade("PLAIN", 3, 1.5));

            await().atMost(Duration.ofSeconds(20)).until(() -> priced.size() == 1);
            QueueAdapterInfo gateway = new QueueAdapterRegistry(context).adapter("pricer").orElseThrow();
            await().atMost(Duration.ofSeconds(20)).until(() -> gateway.processedCount() == 1);
            assertThat(replies.lastIndex()).as("no reply written").isEqualTo(-1);
        }
    }

    /** No requester waits for an excerpt that is no request: the gateway does not wait out a reply timeout on it. */
    @Test
    void shouldRunAOneWayFlowOverExcerptsThatAreNoRequestsWithoutWaitingForReplies() {
        IntegrationFlow oneWay = IntegrationFlow.from(Cq.inboundGateway(pricing).id("pricer").payloadType(Trade.class)
                        .replyQueues(replies).replyTimeout(30_000L))
                .handle(Trade.class, (trade, headers) -> {
                    priced.add(trade);
                    return null;
                })
                .get();
        try (AbstractApplicationContext context = Flows.run(oneWay)) {
            for (int i = 0; i < 3; i++) {
                Messages.writeObject(pricing.acquireAppender(), new Trade("PLAIN", i, 1.5));
            }
            QueueAdapterInfo gateway = new QueueAdapterRegistry(context).adapter("pricer").orElseThrow();
            // Waiting out the reply timeout would take 30 s per excerpt.
            await().atMost(Duration.ofSeconds(20)).until(() -> gateway.processedCount() == 3);
            assertThat(priced).hasSize(3);
            assertThat(gateway.state()).isEqualTo(QueueAdapterInfo.State.RUNNING);
        }
    }
}
