package io.cq.spring.boot.messages;

import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Method writers and readers, and payload objects, through the starter (docs/spring-boot.md, "Typed messages"). */
class TypedMessagesTest {
    @TempDir
    Path dir;

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(TradingApplication.class).web(WebApplicationType.NONE)
                .properties("cq.base-path=" + dir, "cq.queues.trades.roll-cycle=daily",
                "cq.queues.fills.roll-cycle=daily",
                        "cq.listener.retry.interval=5ms", "cq.listener.retry.max-attempts=3")
                .run();
    }

    @Test
    void shouldDeliverTheCallsOfAWriterInterfaceBeanToAClassLevelListenerAndResumeAfterARestart() throws Exception {
        try (ConfigurableApplicationContext first = start()) {
            TradingApplication.TradeEvents events = first.getBean(TradingApplication.TradeEvents.class);
            events.onTrade(new TradingApplication.Trade("AAPL", 100, 189.25));
            Thread writer = Thread.ofPlatform().start(() -> events.onCancel("t-1", 40));
            writer.join();
            var book = first.getBean(TradingApplication.Book.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> book.calls.size() == 2);
            assertThat(book.calls).containsExactly("trade AAPL 100@189.25", "cancel t-1 40");
            assertThat(events.toString()).contains("queue 'trades'");
        }
        try (MappedQueue trades = MappedQueue.builder(dir.resolve("trades")).build()) {
            Messages.methodWriter(trades.acquireAppender(), TradingApplication.TradeEvents.class)
                    .onTrade(new TradingApplication.Trade("MSFT", 5, 420.5));
            trades.acquireAppender().writeText("not a message: skipped by a method-reader listener");
        }
        try (ConfigurableApplicationContext second = start()) {
            var book = second.getBean(TradingApplication.Book.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> book.calls.size() == 1);
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(2)).until(() -> book.calls.size() == 1);
            assertThat(book.calls).containsExactly("trade MSFT 5@420.5");
            var container = second.getBean(ListenerContainerRegistry.class).container("book");
            await().atMost(Duration.ofSeconds(5)).until(() -> container.lag() == 0);
            assertThat(container.failedCount()).isZero();
        }
    }

    @Test
    void shouldDecodePayloadObjects() {
        try (ConfigurableApplicationContext context = start()) {
            var ledger = appendTwoFillsAroundATextAndAwaitThem(context);

            assertThat(ledger.fills).containsExactly("o-1 x10", "o-2 x20");
        }
    }

    @Test
    void shouldFailWithoutRetryingAnExcerptThatDoesNotDecode() {
        try (ConfigurableApplicationContext context = start()) {
            appendTwoFillsAroundATextAndAwaitThem(context);

            var container = context.getBean(ListenerContainerRegistry.class).container("ledger");
            assertThat(container.failedCount()).isEqualTo(1);
            assertThat(container.retryCount()).isZero();
        }
    }

    /** Appends two fills with a text between them that is no object, and waits until the ledger has both fills. */
    private static TradingApplication.Ledger appendTwoFillsAroundATextAndAwaitThem(
            ConfigurableApplicationContext context) {
        QueueTemplate template = context.getBean(QueueTemplate.class);
        template.append("fills", new TradingApplication.Fill("o-1", 10));
        template.appendText("fills", "plain text, not an object");
        template.append("fills", new TradingApplication.Fill("o-2", 20));
        var ledger = context.getBean(TradingApplication.Ledger.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> ledger.fills.size() == 2);
        return ledger;
    }
}
