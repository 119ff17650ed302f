package io.cq.spring.boot.integration;

import io.cq.core.MappedQueue;
import io.cq.core.message.ReplyErrorException;
import io.cq.integration.dsl.Cq;
import io.cq.spring.boot.reply.QuoteApplication;
import io.cq.spring.boot.reply.QuoteApplication.Quote;
import io.cq.spring.boot.reply.QuoteApplication.QuoteRequest;
import io.cq.spring.boot.reply.RequestReplyTestSupport;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.core.MessagingTemplate;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandlingException;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Spring Integration gateways and the starter speak the same request/reply headers: a flow asks a replying
 * {@code @QueueListener}, and {@code QueueTemplate.sendAndReceive} asks a flow served by an inbound gateway.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RequestReplyWithGatewaysTest {
    /** One application for every test: none of them changes what the others see. */
    private ConfigurableApplicationContext context;

    @Configuration(proxyBeanMethods = false)
    static class GatewayFlows {
        @Bean
        IntegrationFlow quoteAsker(@Qualifier("quotes") MappedQueue quotes, @Qualifier("replies") MappedQueue replies) {
            return IntegrationFlow.from("askQuoter")
                    .handle(Cq.requestReplyGateway(quotes, replies).replyPayloadType(Quote.class)
                            .replyTimeout(Duration.ofSeconds(20)))
                    .get();
        }

        @Bean
        IntegrationFlow shoutingService(@Qualifier("shouts") MappedQueue shouts) {
            return IntegrationFlow.from(Cq.inboundGateway(shouts).id("shout-server"))
                    .<String, String>transform(text -> text.toUpperCase(Locale.ROOT) + "!")
                    .get();
        }
    }

    @BeforeAll
    void start(@TempDir Path dir) {
        context = new SpringApplicationBuilder(QuoteApplication.class, GatewayFlows.class).web(WebApplicationType.NONE)
                .properties(RequestReplyTestSupport.properties(dir,
                        "cq.queues.shouts.roll-cycle=daily"))
                .run();
    }

    @AfterAll
    void stop() {
        context.close();
    }

    @Test
    void shouldAnswerAFlowsRequestWithAReplyingListener() {
        MessageChannel askQuoter = context.getBean("askQuoter", MessageChannel.class);

        Object reply = new MessagingTemplate().sendAndReceive(askQuoter,
                MessageBuilder.withPayload(new QuoteRequest("AAPL", 4)).build()).getPayload();

        assertThat(reply).isEqualTo(new Quote("AAPL", 4, 104.0, String.valueOf(ProcessHandle.current().pid())));
    }

    @Test
    void shouldFailAFlowsRequestWithTheErrorOfTheReplyingListener() {
        MessageChannel askQuoter = context.getBean("askQuoter", MessageChannel.class);

        assertThatThrownBy(() -> new MessagingTemplate().sendAndReceive(askQuoter,
                MessageBuilder.withPayload(new QuoteRequest("FAIL", 1)).build()))
                .isInstanceOf(MessageHandlingException.class)
                .hasMessageContaining("listener 'quoter' (Quoter.quote) failed on request ")
                .cause().isInstanceOf(ReplyErrorException.class);
    }

    @Test
    void shouldAnswerSendAndReceiveWithTheReplyOfAnInboundGatewayFlow() throws Exception {
        QueueTemplate template = context.getBean(QueueTemplate.class);

        String reply = template.sendAndReceive("shouts", "hello", String.class).get(30, TimeUnit.SECONDS);

        assertThat(reply).isEqualTo("HELLO!");
    }
}
