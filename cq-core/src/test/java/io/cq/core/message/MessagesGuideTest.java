package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** The examples of docs/messages.md, as written there (keep both in step). */
class MessagesGuideTest {
    @TempDir
    Path dir;

    public record Order(String id, String symbol, long quantity, double price, Side side) { }

    public enum Side { BUY, SELL }

    public interface OrderEvents {
        void onOrder(Order order);

        void onCancel(String orderId, long atNanos);
    }

    public static final class Tick implements BytesMessage {
        public long instrument;
        public double bid, ask;

        @Override public void writeTo(ExcerptBytes bytes) { bytes.writeLong(instrument).writeDouble(bid)
                .writeDouble(ask); }

        @Override public void readFrom(ExcerptBytes bytes) {
            instrument = bytes.readLong();
            bid = bytes.readDouble();
            ask = bytes.readDouble();
        }
    }

    public interface TickEvents {
        void onTick(Tick tick);

        void onLevel(long instrument, double price, int size);
    }

    @Test
    void shouldRunTheMethodWriterAndReaderExample() {
        List<String> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            OrderEvents events = Messages.methodWriter(queue.createAppender(), OrderEvents.class);
            events.onOrder(new Order("o-1", "AAPL", 100, 189.25, Side.BUY));   // one excerpt
            events.onCancel("o-1", System.nanoTime());                          // another

            OrderEvents handler = new OrderEvents() {
                @Override public void onOrder(Order order) { seen.add("order " + order.id()); }
                @Override public void onCancel(String orderId, long atNanos) { seen.add("cancel " + orderId); }
            };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            while (reader.readOne()) {
                // each call dispatched one excerpt; false once the queue has no more
            }
        }
        assertThat(seen).containsExactly("order o-1", "cancel o-1");
    }

    @Test
    void shouldRunTheDocumentExample() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            ExcerptTailer tailer = queue.createTailer();
            Messages.writeObject(appender, new Order("o-2", "MSFT", 5, 420.5, Side.SELL));
            // null when there is nothing yet
            Order order = Messages.readObject(tailer, Order.class);
            assertThat(order).isEqualTo(new Order("o-2", "MSFT", 5, 420.5, Side.SELL));
        }
    }

    @Test
    void shouldRunTheLambdaExample() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            ExcerptTailer tailer = queue.createTailer();
            appender.writeDocument(bytes -> bytes.writeUtf8("AAPL").writeLong(100));
            StringBuilder printed = new StringBuilder();
            boolean read = tailer.readDocument(bytes -> printed.append(bytes.readUtf8() + " " + bytes.readLong()));
            assertThat(read).isTrue();
            assertThat(printed).hasToString("AAPL 100");
        }
    }

    @Test
    void shouldRunTheFastPathExample() {
        List<String> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            TickEvents ticks = Messages.methodWriter(queue.acquireAppender(), TickEvents.class);
            Tick tick = new Tick();
            tick.instrument = 7;
            tick.bid = 1.5;
            tick.ask = 1.75;
            ticks.onTick(tick);
            ticks.onLevel(7, 1.5, 300);
            TickEvents handler = new TickEvents() {
                @Override public void onTick(Tick t) { seen.add(t.instrument + " " + t.bid + " " + t.ask); }
                @Override public void onLevel(long instrument, double price,
                        int size) { seen.add(instrument + " @" + price + " x" + size); }
            };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            while (reader.readOne()) {
                // drain
            }
        }
        assertThat(seen).containsExactly("7 1.5 1.75", "7 @1.5 x300");
    }

    @Test
    void shouldRunTheHistoryExample() {
        List<String> printed = new ArrayList<>();
        try (MappedQueue q1 = MappedQueue.builder(dir.resolve("q1")).build();
             MappedQueue q2 = MappedQueue.builder(dir.resolve("q2")).build()) {
            Messages.methodWriterBuilder(q1.acquireAppender(), OrderEvents.class).sourceId(1).build()
                    .onOrder(new Order("o-3", "AAPL", 1, 1.0, Side.BUY));

            // service A: reads q1, writes q2
            OrderEvents toQ2 = Messages.methodWriterBuilder(q2.createAppender(), OrderEvents.class).sourceId(2)
                    .build();
            MethodReader relay = Messages.methodReaderBuilder(q1.createTailer()).handlers(toQ2).history(true).build();
            assertThat(relay.readOne()).isTrue();

            // the last service: reads q2 and reports
            OrderEvents report = new OrderEvents() {
                @Override public void onOrder(Order order) {
                    MessageHistory history = MessageHistory.current();      // this thread's, valid inside the handler
                    long firstWrite = history.timing(0);
                    long thisRead = history.timing(history.timingCount() - 1);
                    printed.add(order.id() + " took " + (thisRead - firstWrite) + " ns from source "
                            + history.sourceId(0));
                }
                @Override public void onCancel(String orderId, long atNanos) { }
            };
            Messages.methodReaderBuilder(q2.createTailer()).handlers(report).history(true).build().readOne();
        }
        assertThat(printed).singleElement().asString().startsWith("o-3 took ").endsWith(" ns from source 1");
    }

    @Test
    void shouldRunTheToolsExample() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriterBuilder(queue.acquireAppender(), OrderEvents.class).sourceId(2).build()
                    .onOrder(new Order("o-1", "AAPL", 100, 189.25, Side.BUY));
            ExcerptTailer tailer = queue.createTailer();
            try (ReadContext dc = tailer.readingDocument()) {
                if (dc.isPresent() && Messages.isMessage(dc.bytes())) {
                    String method = Messages.methodName(dc.bytes());           // "onOrder"
                    assertThat(method).isEqualTo("onOrder");
                    assertThat(Messages.toJson(dc)).startsWith("{\"method\":\"onOrder\",\"arguments\":[{\"id\":\"o-1\","
                            + "\"symbol\":\"AAPL\",\"quantity\":100,\"price\":189.25,\"side\":\"BUY\"}],"
                            + "\"history\":{\"sources\":[{\"sourceId\":2,\"index\":" + dc.index() + "}],\"timings\":[");
                }
            }
        }
    }

    @Test
    void shouldRunTheHeadersExample() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            ExcerptTailer tailer = queue.createTailer();
            List<String> seen = new ArrayList<>();

            TextHeaders outgoing = new TextHeaders();                      // one per writing thread; reused
            OrderEvents events = Messages.methodWriterBuilder(appender, OrderEvents.class).headers(outgoing).build();
            outgoing.put("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
            events.onCancel("o-1", System.nanoTime());                     // carries the header
            outgoing.clear();
            events.onCancel("o-2", System.nanoTime());                     // carries none

            TextHeaders incoming = new TextHeaders();
            for (int i = 0; i < 2; i++) {
                try (ReadContext dc = tailer.readingDocument()) {
                    if (dc.isPresent() && Messages.readHeaders(dc, incoming)) {   // false: raw, or no headers
                        String traceparent = incoming.get("traceparent");
                        seen.add(traceparent);
                    }
                }
            }
            assertThat(seen).containsExactly("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        }
    }

    @Test
    void shouldRunTheRequestAndReplyExample() throws Exception {
        try (MappedQueue orders = MappedQueue.builder(dir.resolve("orders")).build();
             MappedQueue replyQueue = MappedQueue.builder(dir.resolve("replies")).build();
             ExcerptTailer requestTailer = orders.createTailer()) {
            Order order = new Order("o-1", "AAPL", 100, 189.25, Side.BUY);
            TextHeaders incoming = new TextHeaders();
            List<String> seen = new ArrayList<>();

            // the requester's lines, split around the responder's so that one thread runs both
            try (ReplyReader replies = ReplyReader.open(replyQueue, "replies")) {
                CompletableFuture<String> answer = replies.request("queue 'orders'", String.class,
                        Duration.ofSeconds(5), headers -> Messages.writeObject(orders.acquireAppender(), order,
                                headers));

                try (ReadContext dc = requestTailer.readingDocument()) {
                    if (dc.isPresent() && Messages.readHeaders(dc, incoming)) {
                        String correlationId = incoming.get(RequestReply.CORRELATION_ID);
                        String replyTo = incoming.get(RequestReply.REPLY_TO);            // "replies"
                        seen.add(replyTo);
                        Order received = Messages.readObject(dc, Order.class);
                        RequestReply.writeReply(replyQueue.acquireAppender(), "accepted " + received.id(),
                                correlationId);
                    }
                }

                String text = answer.get();                                             // "accepted o-1"
                seen.add(text);
            }
            assertThat(seen).containsExactly("replies", "accepted o-1");
        }
    }
}
