package io.cq.spring.boot.reply;

import io.cq.spring.annotation.Header;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.annotation.QueueWriter;
import io.cq.spring.annotation.SendTo;
import io.cq.spring.support.ExcerptHeaders;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Responders and requesters in one application: replying listeners, a {@code @SendTo} listener, and writer
 * interfaces whose methods return futures. Also the responder of the two-process test, run by {@link #main}.
 */
@SpringBootApplication
public class QuoteApplication {
    public record QuoteRequest(String symbol, long quantity) {
    }

    public record Quote(String symbol, long quantity, double price, String pid) {
    }

    public record Order(String id, long quantity) {
    }

    public record Confirmation(String orderId, String status) {
    }

    /** Requests to the quoter: the call is the request, the future its reply. */
    @QueueWriter(queue = "quotes")
    public interface QuoteService {
        CompletableFuture<Quote> quote(QuoteRequest request);
    }

    /** Both kinds of methods on one interface: a request and a one-way call. */
    @QueueWriter(queue = "echo", replyTimeout = "${test.shout-timeout:10s}")
    public interface Shouter {
        CompletableFuture<String> shout(String text);

        void whisper(String text);
    }

    @Bean
    Quoter quoter() {
        return new Quoter();
    }

    @Bean
    Echo echoer() {
        return new Echo();
    }

    @Bean
    OrderDesk orderDesk() {
        return new OrderDesk();
    }

    @Bean
    AsyncQuoter asyncQuoter() {
        return new AsyncQuoter();
    }

    @Bean
    Auditor auditor() {
        return new Auditor();
    }

    /** Replies with a quote; throws for "FAIL"; returns null (no reply) for "NONE". */
    public static class Quoter {
        public final AtomicInteger calls = new AtomicInteger();
        public final List<String> correlationIds = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "quotes", id = "quoter")
        Quote quote(QuoteRequest request, @Header(ExcerptHeaders.CORRELATION_ID) String correlationId) {
            calls.incrementAndGet();
            correlationIds.add(String.valueOf(correlationId));
            return switch (request.symbol()) {
                case "FAIL" -> throw new IllegalStateException("no price for " + request.symbol());
                case "NONE" -> null;
                default -> new Quote(request.symbol(), request.quantity(), 100.0 + request.quantity(),
                        String.valueOf(ProcessHandle.current().pid()));
            };
        }
    }

    /** Replies with the text in upper case. */
    public static class Echo {
        public final List<String> received = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "echo", id = "echo")
        String echo(String text) {
            received.add(text);
            return text.toUpperCase(Locale.ROOT);
        }
    }

    /** Confirms orders on the confirmations queue, unless a request names its own reply queue. */
    public static class OrderDesk {
        @QueueListener(queue = "orders", id = "order-desk")
        @SendTo("confirmations")
        Confirmation confirm(Order order) {
            return new Confirmation(order.id(), "confirmed " + order.quantity());
        }
    }

    /** Replies when a future completes on another thread; "FAIL" completes it exceptionally. */
    public static class AsyncQuoter {
        @QueueListener(queue = "async-quotes", id = "async-quoter")
        CompletableFuture<Quote> quote(QuoteRequest request) {
            return CompletableFuture.supplyAsync(() -> {
                if (request.symbol().equals("FAIL")) {
                    throw new IllegalArgumentException("async failure for " + request.symbol());
                }
                return new Quote(request.symbol(), request.quantity(), 200.0, "async");
            });
        }
    }

    /** Sends on with Spring Messaging's {@code @SendTo}, which the starter honours as well as its own. */
    public static class Auditor {
        @QueueListener(queue = "audit", id = "auditor")
        @org.springframework.messaging.handler.annotation.SendTo("audit-log")
        String audit(String event) {
            return "audited " + event;
        }
    }

    /** The responder of the two-process test: runs until the parent process ends it. */
    public static void main(String[] args) {
        SpringApplication.run(QuoteApplication.class, args);
        System.out.println("responder ready in process " + ProcessHandle.current().pid());
    }
}
