package io.cq.spring.boot.reply;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.QueueClosedException;
import io.cq.core.ReadContext;
import io.cq.core.message.MessageDecodingException;
import io.cq.core.message.Messages;
import io.cq.core.message.ReplyErrorException;
import io.cq.core.message.ReplyTimeoutException;
import io.cq.core.message.RequestReply;
import io.cq.core.message.TextHeaders;
import io.cq.spring.boot.reply.QuoteApplication.Confirmation;
import io.cq.spring.boot.reply.QuoteApplication.Order;
import io.cq.spring.boot.reply.QuoteApplication.Quote;
import io.cq.spring.boot.reply.QuoteApplication.QuoteRequest;
import io.cq.spring.boot.reply.QuoteApplication.QuoteService;
import io.cq.spring.boot.reply.QuoteApplication.Shouter;
import io.cq.spring.boot.requester.RequesterApplication;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.core.ReplyReaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Request/reply through the starter (docs/spring-boot.md, "Request/reply"), in one process. */
class RequestReplyTest {
    @TempDir
    Path dir;

    private ConfigurableApplicationContext start(String... more) {
        return new SpringApplicationBuilder(QuoteApplication.class).web(WebApplicationType.NONE)
                .properties(RequestReplyTestSupport.properties(dir, more)).run();
    }

    private static <T> T reply(CompletableFuture<T> future) throws Exception {
        return future.get(30, TimeUnit.SECONDS);
    }

    @Test
    void shouldCompleteSendAndReceiveWithTheReturnValueOfTheListener() throws Exception {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            String shouted = reply(template.sendAndReceive("echo", "hello", String.class));
            Quote quote = reply(template.sendAndReceive("quotes", new QuoteRequest("AAPL", 7), Quote.class));

            assertThat(shouted).isEqualTo("HELLO");
            assertThat(quote).isEqualTo(new Quote("AAPL", 7, 107.0, String.valueOf(ProcessHandle.current().pid())));
            assertThat(context.getBean(QuoteApplication.Quoter.class).correlationIds).singleElement()
                    .asString().isNotBlank().isNotEqualTo("null");
            assertThat(context.getBean(ReplyReaders.class).pendingCount()).isZero();
        }
    }

    @Test
    void shouldCompleteTheFutureOfAQueueWriterMethodWithTheReply() throws Exception {
        try (ConfigurableApplicationContext context = start()) {
            QuoteService quotes = context.getBean(QuoteService.class);
            Shouter shouter = context.getBean(Shouter.class);

            assertThat(reply(quotes.quote(new QuoteRequest("MSFT", 3)))).extracting(Quote::symbol, Quote::price)
                    .containsExactly("MSFT", 103.0);
            assertThat(reply(shouter.shout("louder"))).isEqualTo("LOUDER");
            assertThat(shouter.toString()).contains("queue 'echo'", "replies from queue 'replies'");
        }
    }

    @Test
    void shouldAppendTheOneWayMethodsOfAQueueWriterWithFuturesAsBeforeWithoutReplyHeaders() throws Exception {
        try (ConfigurableApplicationContext context = start()) {
            Shouter shouter = context.getBean(Shouter.class);

            reply(shouter.shout("louder"));
            shouter.whisper("quietly");

            QuoteApplication.Echo echo = context.getBean(QuoteApplication.Echo.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> echo.received.size() == 2);
            assertThat(echo.received).containsExactly("louder", "quietly");
            try (MappedQueue echoQueue = MappedQueue.builder(dir.resolve("echo")).build();
                 ExcerptTailer tailer = echoQueue.createTailer()) {
                TextHeaders headers = new TextHeaders();
                try (ReadContext shout = tailer.readingDocument()) {
                    assertThat(Messages.methodName(shout.bytes())).isEqualTo("shout");
                    assertThat(Messages.readHeaders(shout, headers)).isTrue();
                    assertThat(headers.get(RequestReply.REPLY_TO)).isEqualTo("replies");
                }
                try (ReadContext whisper = tailer.readingDocument()) {
                    assertThat(Messages.methodName(whisper.bytes())).isEqualTo("whisper");
                    // A one-way call is no request: it may carry the trace context (Brave is on the test class
                    // path), never a correlation id or a reply queue.
                    Messages.readHeaders(whisper, headers);
                    assertThat(headers.get(RequestReply.CORRELATION_ID)).as("a one-way call's correlation id").isNull();
                    assertThat(headers.get(RequestReply.REPLY_TO)).as("a one-way call's reply queue").isNull();
                }
            }
        }
    }

    @Test
    void shouldSendTheReturnValueToTheSendToQueueUnlessTheRequestNamesItsReplyQueue() throws Exception {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            template.append("orders", new Order("o-1", 10));
            Confirmation replied = reply(template.sendAndReceive("orders", new Order("o-2", 20), Confirmation.class));
            template.append("orders", new Order("o-3", 30));

            assertThat(replied).isEqualTo(new Confirmation("o-2", "confirmed 20"));
            MappedQueue confirmations = context.getBean("confirmations", MappedQueue.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> confirmations.lastIndex() >= 0
                    && confirmations.countExcerpts(confirmations.firstIndex(), confirmations.lastIndex() + 1) == 2);
            try (ExcerptTailer tailer = confirmations.createTailer()) {
                assertThat(Messages.readObject(tailer, Confirmation.class))
                        .isEqualTo(new Confirmation("o-1", "confirmed 10"));
                assertThat(Messages.readObject(tailer, Confirmation.class))
                        .isEqualTo(new Confirmation("o-3", "confirmed 30"));
            }
        }
    }

    @Test
    void shouldHonourSpringMessagingsSendTo() {
        try (ConfigurableApplicationContext context = start()) {
            context.getBean(QueueTemplate.class).appendText("audit", "login");

            MappedQueue log = context.getBean("audit-log", MappedQueue.class);
            await().atMost(Duration.ofSeconds(10)).until(() -> log.lastIndex() >= 0);
            try (ExcerptTailer tailer = log.createTailer()) {
                assertThat(Messages.readObject(tailer, String.class)).isEqualTo("audited login");
            }
        }
    }

    @Test
    void shouldReplyWithAnErrorToARequestTheListenerCannotDecodeWithoutRetryingIt() {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            CompletableFuture<Quote> failed = template.sendAndReceive("quotes", "not a quote request", Quote.class);

            assertThatThrownBy(() -> reply(failed)).cause().isInstanceOfSatisfying(ReplyErrorException.class,
                    error -> {
                        assertThat(error.source()).isEqualTo("listener 'quoter' (Quoter.quote)");
                        assertThat(error.errorType()).isEqualTo(MessageDecodingException.class.getName());
                    });
            assertThat(context.getBean(QuoteApplication.Quoter.class).calls).as("never called").hasValue(0);
            assertThat(context.getBean(ListenerContainerRegistry.class).container("quoter").retryCount()).isZero();
        }
    }

    @Test
    void shouldSendNothingWhenTheListenerReturnsNull() {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            MappedQueue replies = context.getBean("replies", MappedQueue.class);

            CompletableFuture<Quote> none = template.sendAndReceive("quotes", new QuoteRequest("NONE", 1), Quote.class,
                    "replies", Duration.ofMillis(500));

            assertThatThrownBy(() -> reply(none)).cause().isInstanceOf(ReplyTimeoutException.class);
            var container = context.getBean(ListenerContainerRegistry.class).container("quoter");
            assertThat(container.processedCount()).isEqualTo(1);
            assertThat(replies.lastIndex()).as("nothing was appended to the reply queue").isEqualTo(-1);
        }
    }

    @Test
    void shouldFailTheFutureWithTheListenerAndItsErrorOnceTheRetriesAreExhausted() {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            long start = System.nanoTime();

            CompletableFuture<Quote> failed = template.sendAndReceive("quotes", new QuoteRequest("FAIL", 1),
                    Quote.class);

            assertThatThrownBy(() -> reply(failed)).cause().isInstanceOf(ReplyErrorException.class)
                    .hasMessageStartingWith("listener 'quoter' (Quoter.quote) failed on request ")
                    .hasMessageEndingWith(": java.lang.IllegalStateException: no price for FAIL");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("well before the 20 s timeout")
                    .isLessThan(Duration.ofSeconds(15));
            assertThat(context.getBean(QuoteApplication.Quoter.class).calls).as("both attempts ran").hasValue(2);
            MappedQueue replies = context.getBean("replies", MappedQueue.class);
            assertThat(replies.countExcerpts(replies.firstIndex(), replies.lastIndex() + 1))
                    .as("one error reply, after the retries").isEqualTo(1);
            assertThat(context.getBean(ListenerContainerRegistry.class).container("quoter").failedCount())
                    .isEqualTo(1);
        }
    }

    @Test
    void shouldReplyWhenAReturnedFutureCompletes() throws Exception {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            Quote quote = reply(template.sendAndReceive("async-quotes", new QuoteRequest("IBM", 2), Quote.class));

            assertThat(quote).isEqualTo(new Quote("IBM", 2, 200.0, "async"));
        }
    }

    @Test
    void shouldReplyWithTheFailureOfAReturnedFuture() {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            CompletableFuture<Quote> failed = template.sendAndReceive("async-quotes", new QuoteRequest("FAIL", 2),
                    Quote.class);

            assertThatThrownBy(() -> reply(failed)).cause().isInstanceOf(ReplyErrorException.class)
                    .hasMessageContaining("listener 'async-quoter' (AsyncQuoter.quote) failed on request ")
                    .hasMessageEndingWith(": java.lang.IllegalArgumentException: async failure for FAIL");
        }
    }

    @Test
    void shouldTimeOutWithAClearException() {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            CompletableFuture<String> unanswered = template.sendAndReceive("silent", "anyone?", String.class, null,
                    Duration.ofMillis(200));

            assertThatThrownBy(() -> reply(unanswered)).cause().isInstanceOf(ReplyTimeoutException.class)
                    .hasMessageStartingWith("no reply within 200 ms to request ")
                    .hasMessageEndingWith(" sent to queue 'silent' (replies are read from queue 'replies')");
        }
    }

    @Test
    void shouldKeepNoPendingRequestAfterATimeout() {
        try (ConfigurableApplicationContext context = start()) {
            QueueTemplate template = context.getBean(QueueTemplate.class);

            CompletableFuture<String> unanswered = template.sendAndReceive("silent", "anyone?", String.class, null,
                    Duration.ofMillis(200));

            assertThatThrownBy(() -> reply(unanswered)).cause().isInstanceOf(ReplyTimeoutException.class);
            assertThat(context.getBean(ReplyReaders.class).pendingCount()).isZero();
        }
    }

    @Test
    void shouldFailWaitingRequestsWhenTheContextCloses() {
        CompletableFuture<String> waiting;
        try (ConfigurableApplicationContext context = start()) {
            waiting = context.getBean(QueueTemplate.class).sendAndReceive("silent", "anyone?", String.class);
            assertThat(waiting).isNotDone();
        }
        assertThat(waiting).isCompletedExceptionally();
        assertThatThrownBy(waiting::join).cause().isInstanceOf(QueueClosedException.class)
                .hasMessageContaining("the reply reader of queue 'replies' was closed before request ")
                .hasMessageEndingWith(" to queue 'silent' got a reply");
    }

    @Test
    void shouldAnswerAHundredConcurrentRequestsEachWithItsOwnReply() throws Exception {
        try (ConfigurableApplicationContext context = start();
             ExecutorService requesters = Executors.newFixedThreadPool(8)) {
            QueueTemplate template = context.getBean(QueueTemplate.class);
            QuoteService quotes = context.getBean(QuoteService.class);

            List<CompletableFuture<Object>> replies = IntStream.range(0, 100)
                    .mapToObj(i -> CompletableFuture.supplyAsync(() -> i % 2 == 0
                                    ? template.sendAndReceive("echo", "request-" + i, String.class)
                                    : quotes.quote(new QuoteRequest("S" + i, i)), requesters)
                            .thenCompose(future -> future.thenApply(Object.class::cast)))
                    .toList();

            for (int i = 0; i < 100; i++) {
                Object answer = reply(replies.get(i));
                if (i % 2 == 0) {
                    assertThat(answer).isEqualTo("REQUEST-" + i);
                } else {
                    assertThat(answer).isInstanceOf(Quote.class).extracting("symbol", "quantity")
                            .containsExactly("S" + i, (long) i);
                }
            }
            assertThat(context.getBean(ReplyReaders.class).pendingCount()).isZero();
        }
    }

    @Test
    void shouldGiveTwoApplicationsSharingAReplyQueueOnlyTheRepliesToTheirOwnRequests() throws Exception {
        try (ConfigurableApplicationContext responder = start();
             ConfigurableApplicationContext other = new SpringApplicationBuilder(RequesterApplication.class)
                     .web(WebApplicationType.NONE).properties(RequestReplyTestSupport.properties(dir)).run()) {
            QuoteService mine = responder.getBean(QuoteService.class);
            RequesterApplication.RemoteQuotes theirs = other.getBean(RequesterApplication.RemoteQuotes.class);

            List<CompletableFuture<Quote>> fromMine = new ArrayList<>();
            List<CompletableFuture<Quote>> fromTheirs = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                fromMine.add(mine.quote(new QuoteRequest("MINE", i)));
                fromTheirs.add(theirs.quote(new QuoteRequest("THEIRS", i)));
            }

            for (int i = 0; i < 30; i++) {
                assertThat(reply(fromMine.get(i))).extracting(Quote::symbol, Quote::quantity)
                        .containsExactly("MINE", (long) i);
                assertThat(reply(fromTheirs.get(i))).extracting(Quote::symbol, Quote::quantity)
                        .containsExactly("THEIRS", (long) i);
            }
            MappedQueue replies = responder.getBean("replies", MappedQueue.class);
            assertThat(replies.countExcerpts(replies.firstIndex(), replies.lastIndex() + 1))
                    .as("each application's reader saw all 60 replies and completed only its own 30").isEqualTo(60);
            assertThat(responder.getBean(ReplyReaders.class).pendingCount()).isZero();
            assertThat(other.getBean(ReplyReaders.class).pendingCount()).isZero();
        }
    }

    @Test
    void shouldUseTheReplyTimeoutOfTheWriterInterface() {
        try (ConfigurableApplicationContext context = start("test.shout-timeout=150ms")) {
            context.getBean(ListenerContainerRegistry.class).stop("echo");   // nobody answers now

            CompletableFuture<String> shout = context.getBean(Shouter.class).shout("anyone?");

            assertThatThrownBy(() -> reply(shout)).cause().isInstanceOf(ReplyTimeoutException.class)
                    .hasMessageStartingWith("no reply within 150 ms to request ");
        }
    }
}
