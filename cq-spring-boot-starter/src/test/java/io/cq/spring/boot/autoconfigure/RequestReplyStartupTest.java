package io.cq.spring.boot.autoconfigure;

import io.cq.spring.annotation.QueueListener;
import io.cq.spring.annotation.SendTo;
import io.cq.spring.boot.reply.QuoteApplication.Quote;
import io.cq.spring.boot.requester.RequesterApplication;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Request/reply settings that cannot work stop start-up, or the call, with a message that says why. */
class RequestReplyStartupTest {
    @TempDir
    Path dir;

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir, "cq.queues.orders.roll-cycle=daily",
                        "cq.queues.replies.roll-cycle=daily");
    }

    private FailureAnalysis startupFailure(ApplicationContextRunner runner) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        runner.run(context -> {
            assertThat(context).hasFailed();
            analysis[0] = StartupFailures.analyze(context.getStartupFailure());
        });
        return analysis[0];
    }

    static class SendsNowhere {
        @QueueListener(queue = "orders", id = "sends-nowhere")
        @SendTo("nowhere")
        String confirm(String order) {
            return order;
        }
    }

    static class SendsNothing {
        @QueueListener(queue = "orders", id = "sends-nothing")
        @SendTo("replies")
        void confirm(String order) {
        }
    }

    public interface ListQuotes {
        CompletableFuture<List<Quote>> quotes(String symbol);
    }

    @Test
    void shouldRefuseToStartWhenTheSendToQueueIsNotConfigured() {
        FailureAnalysis analysis = startupFailure(runner().withBean(SendsNowhere.class));

        assertThat(analysis.getDescription()).contains("cq.queues.nowhere").contains(
                "@QueueListener(id = \"sends-nowhere\") on SendsNowhere.confirm sends its return values to queue "
                        + "'nowhere' (@SendTo), which is not configured");
        assertThat(analysis.getAction()).contains("cq.queues.nowhere.path");
    }

    @Test
    void shouldRefuseSendToOnAListenerThatReturnsNothing() {
        runner().withBean(SendsNothing.class).run(context -> assertThat(context).hasFailed().getFailure()
                .rootCause().hasMessage("@QueueListener(id = \"sends-nothing\") on SendsNothing.confirm has "
                        + "@SendTo(\"replies\") but returns nothing to send"));
    }

    @Test
    void shouldRefuseADefaultReplyQueueThatIsNotConfigured() {
        FailureAnalysis analysis = startupFailure(runner().withPropertyValues("cq.request-reply.reply-queue=answers"));

        assertThat(analysis.getDescription()).contains("cq.request-reply.reply-queue").contains("'answers'")
                .contains("which is not configured").contains("[orders, replies]");
    }

    @Test
    void shouldRefuseAWriterInterfaceWithFuturesWhenNoReplyQueueIsSet() {
        SpringApplicationBuilder requester = new SpringApplicationBuilder(RequesterApplication.class)
                .web(WebApplicationType.NONE).properties("cq.base-path=" + dir, "cq.queues.quotes.roll-cycle=daily");

        Throwable failure = catchThrowable(requester::run);

        FailureAnalysis analysis = StartupFailures.analyze(failure);
        assertThat(analysis.getDescription()).contains("cq.request-reply.reply-queue")
                .contains("@QueueWriter " + RequesterApplication.RemoteQuotes.class.getName()
                        + " has methods returning futures, whose replies are read from a reply queue, and none is set");
    }

    @Test
    void shouldRefuseSendAndReceiveWithoutAReplyQueueKeepingNoPendingRequest() {
        runner().run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            assertThatThrownBy(() -> template.sendAndReceive("orders", "o-1", String.class))
                    .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("no reply queue: name one");
            assertThat(template.replies().pendingCount()).isZero();
        });
    }

    @Test
    void shouldRefuseAWriterMethodReturningAFutureOfAGenericReplyType() {
        runner().run(context -> {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            assertThatThrownBy(() -> template.methodWriter("orders", ListQuotes.class))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ListQuotes.quotes returns java.util.concurrent.CompletableFuture<"
                            + "java.util.List<" + Quote.class.getName() + ">>: a request's future completes with its "
                            + "reply decoded as one class");
        });
    }
}
