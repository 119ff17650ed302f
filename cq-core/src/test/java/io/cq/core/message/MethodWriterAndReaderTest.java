package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MethodWriterAndReaderTest {
    @TempDir
    Path dir;

    enum Side { BUY, SELL }

    record Trade(String symbol, long quantity, double price, Side side) {
    }

    /** A POJO: no-argument constructor, getters and setters. */
    public static final class Account {
        private String owner;
        private List<Trade> trades = new ArrayList<>();

        public String getOwner() {
            return owner;
        }

        public void setOwner(String owner) {
            this.owner = owner;
        }

        public List<Trade> getTrades() {
            return trades;
        }

        public void setTrades(List<Trade> trades) {
            this.trades = trades;
        }
    }

    interface Everything {
        void primitives(boolean z, byte b, short s, char c, int i, long j, float f, double d);

        void text(String string, CharSequence sequence);

        void nulls(String string, Trade trade, List<Trade> list);

        void trade(Trade trade);

        void account(Account account);

        void nested(Map<String, List<Trade>> bySymbol);

        void times(Instant instant, LocalDate date, Side side);

        void bytes(byte[] payload);

        void nothing();
    }

    private final List<Object> calls = new CopyOnWriteArrayList<>();

    /** Records every call as a list of its name and arguments. */
    private final Everything recorder = new Everything() {
        @Override
        public void primitives(boolean z, byte b, short s, char c, int i, long j, float f, double d) {
            calls.add(List.of("primitives", z, b, s, c, i, j, f, d));
        }

        @Override
        public void text(String string, CharSequence sequence) {
            calls.add(List.of("text", string, sequence.toString()));
        }

        @Override
        public void nulls(String string, Trade trade, List<Trade> list) {
            calls.add(java.util.Arrays.asList("nulls", string, trade, list));
        }

        @Override
        public void trade(Trade trade) {
            calls.add(List.of("trade", trade));
        }

        @Override
        public void account(Account account) {
            calls.add(List.of("account", account.getOwner(), account.getTrades()));
        }

        @Override
        public void nested(Map<String, List<Trade>> bySymbol) {
            calls.add(List.of("nested", bySymbol));
        }

        @Override
        public void times(Instant instant, LocalDate date, Side side) {
            calls.add(List.of("times", instant, date, side));
        }

        @Override
        public void bytes(byte[] payload) {
            calls.add(List.of("bytes", List.of(payload[0], payload[1], payload[2])));
        }

        @Override
        public void nothing() {
            calls.add(List.of("nothing"));
        }
    };

    @Test
    void shouldRoundTripEveryKindOfArgument() {
        Trade trade = new Trade("AAPL", 100, 189.25, Side.BUY);
        Account account = new Account();
        account.setOwner("ann");
        account.setTrades(List.of(trade, new Trade("MSFT", -5, 420.5, Side.SELL)));
        Instant instant = Instant.parse("2026-11-22T17:00:00.123456789Z");
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Everything writer = Messages.methodWriter(queue.acquireAppender(), Everything.class);
            writer.primitives(true, (byte) -7, (short) 300, 'é', Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f, Math.PI);
            writer.text("wörld ✓", new StringBuilder("built"));
            writer.nulls(null, null, null);
            writer.trade(trade);
            writer.account(account);
            writer.nested(Map.of("AAPL", List.of(trade)));
            writer.times(instant, LocalDate.of(2026, 11, 22), Side.SELL);
            writer.bytes(new byte[] {1, -2, 3});
            writer.nothing();

            MethodReader reader = Messages.methodReader(queue.createTailer(), recorder);
            int read = 0;
            while (reader.readOne()) {
                read++;
            }
            assertThat(read).isEqualTo(9);
            assertThat(reader.messagesRead()).isEqualTo(9);
        }
        assertThat(calls).containsExactly(
                List.of("primitives", true, (byte) -7, (short) 300, 'é', Integer.MIN_VALUE, Long.MAX_VALUE, 1.5f,
                Math.PI),
                List.of("text", "wörld ✓", "built"),
                java.util.Arrays.asList("nulls", null, null, null),
                List.of("trade", trade),
                List.of("account", "ann", account.getTrades()),
                List.of("nested", Map.of("AAPL", List.of(trade))),
                List.of("times", instant, LocalDate.of(2026, 11, 22), Side.SELL),
                List.of("bytes", List.of((byte) 1, (byte) -2, (byte) 3)),
                List.of("nothing"));
    }

    interface Wide {
        void known(int value);

        void added(String text);
    }

    interface Narrow {
        void known(int value);
    }

    /** Known 1, a method the narrow handler does not have, a raw text, known 2; read to the end. */
    private static MethodReader readWideMessagesWithANarrowHandler(MappedQueue queue, List<Integer> known) {
        ExcerptAppender appender = queue.acquireAppender();
        Wide writer = Messages.methodWriter(appender, Wide.class);
        writer.known(1);
        writer.added("ignored");
        appender.writeText("raw text");
        writer.known(2);

        Narrow handler = known::add;
        MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
        while (reader.readOne()) {
            // drain
        }
        return reader;
    }

    @Test
    void shouldSkipMethodsNoHandlerHasAndExcerptsThatAreNotMessages() {
        List<Integer> known = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            MethodReader reader = readWideMessagesWithANarrowHandler(queue, known);
            assertThat(known).containsExactly(1, 2);
            assertThat(reader.readOne()).isFalse();
        }
    }

    @Test
    void shouldCountWhatItReadAndWhatItSkipped() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            MethodReader reader = readWideMessagesWithANarrowHandler(queue, new ArrayList<>());
            assertThat(reader.messagesRead()).isEqualTo(2);
            assertThat(reader.unknownMethodsSkipped()).isEqualTo(1);
            assertThat(reader.otherExcerptsSkipped()).isEqualTo(1);
        }
    }

    interface Prices {
        void price(String symbol, double bid, double ask);
    }

    interface PricesWithVenue {
        void price(String symbol, double bid, double ask, String venue);
    }

    interface PricesBidOnly {
        void price(String symbol, long bid);
    }

    interface Counts {
        void count(String symbol, int count);
    }

    interface CountsAsLong {
        void count(String symbol, long count);
    }

    /** A price of the older interface, then one of the newer interface with a venue. */
    private static void appendAnOlderAndANewerPrice(ExcerptAppender appender) {
        Messages.methodWriter(appender, Prices.class).price("EURUSD", 1.25, 1.5);
        Messages.methodWriter(appender, PricesWithVenue.class).price("GBPUSD", 2.0, 2.5, "LSE");
    }

    @Test
    void shouldToleratePriceMethodsThatGainedOrLostArguments() {
        List<String> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendAnOlderAndANewerPrice(queue.acquireAppender());

            PricesWithVenue newer = (symbol, bid, ask, venue) -> seen.add(symbol + " " + bid + " " + ask + " " + venue);
            MethodReader reader = Messages.methodReader(queue.createTailer(), newer);
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isTrue();
            assertThat(seen).containsExactly("EURUSD 1.25 1.5 null", "GBPUSD 2.0 2.5 LSE");
        }
    }

    @Test
    void shouldWidenIntegers() {
        List<String> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            appendAnOlderAndANewerPrice(appender);
            Messages.methodWriter(appender, Counts.class).count("x", 7);
            long countIndex = appender.lastIndexAppended();
            PricesBidOnly older = (symbol, bid) -> seen.add(symbol + " " + bid);
            CountsAsLong wider = (symbol, count) -> seen.add("long " + symbol + " " + count);
            ExcerptTailer fromCount = queue.createTailer();
            assertThat(fromCount.moveToIndex(countIndex)).isTrue();
            MethodReader both = Messages.methodReader(fromCount, older, wider);
            while (both.readOne()) {
                // drain
            }
            assertThat(seen).endsWith("long x 7");
        }
    }

    @Test
    void shouldRefuseToNarrowADoubleToALong() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendAnOlderAndANewerPrice(queue.acquireAppender());
            PricesBidOnly older = (symbol, bid) -> { };
            assertThatThrownBy(() -> {
                MethodReader mismatched = Messages.methodReader(queue.createTailer(), older);
                mismatched.readOne(); // price(String, double...) read as price(String, long)
            }).isInstanceOf(MessageDecodingException.class)
                    .hasMessageContaining("method price")
                    .hasMessageContaining("argument 1: the excerpt holds a double where the handler takes long");
        }
    }

    interface Described {
        void on(int value);

        @Override
        String toString();
    }

    @Test
    void shouldTreatRedeclaredObjectMethodsAsTheObjectsOwnNotAsMessages() {
        List<Integer> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Described writer = Messages.methodWriter(queue.acquireAppender(), Described.class);
            writer.on(4);
            assertThat(writer.toString()).isNotEmpty();
            Described handler = new Described() {
                @Override
                public void on(int value) {
                    seen.add(value);
                }

                @Override
                public String toString() {
                    return "handler";
                }
            };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isFalse();
        }
        assertThat(seen).containsExactly(4);
    }

    interface Fluent {
        Fluent open(String name);

        Fluent close(String name);
    }

    @Test
    void shouldChainCallsOnInterfacesThatReturnThemselves() {
        List<String> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Fluent.class).open("a").close("a").open("b");
            Fluent handler = new Fluent() {
                @Override
                public Fluent open(String name) {
                    seen.add("open " + name);
                    return this;
                }

                @Override
                public Fluent close(String name) {
                    seen.add("close " + name);
                    return this;
                }
            };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            while (reader.readOne()) {
                // drain
            }
        }
        assertThat(seen).containsExactly("open a", "close a", "open b");
    }

    @Test
    void shouldReadAMessageAgainWhenItsHandlerThrows() {
        List<Integer> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Narrow writer = Messages.methodWriter(queue.acquireAppender(), Narrow.class);
            writer.known(1);
            writer.known(2);
            boolean[] failOnce = {true};
            Narrow flaky = value -> {
                if (value == 2 && failOnce[0]) {
                    failOnce[0] = false;
                    throw new IllegalStateException("downstream unavailable");
                }
                seen.add(value);
            };
            MethodReader reader = Messages.methodReader(queue.createTailer(), flaky);
            assertThat(reader.readOne()).isTrue();
            assertThatThrownBy(reader::readOne).isInstanceOf(IllegalStateException.class)
                    .hasMessage("downstream unavailable");
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isFalse();
        }
        assertThat(seen).containsExactly(1, 2);
    }

    @Test
    void shouldResumeANamedReaderAfterARestartAtTheMessageWhoseHandlerFailed() {
        List<Integer> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Narrow writer = Messages.methodWriter(queue.acquireAppender(), Narrow.class);
            writer.known(1);
            writer.known(2);
            Narrow failsOnTwo = value -> {
                if (value == 2) {
                    throw new IllegalStateException("crash while handling 2");
                }
                seen.add(value);
            };
            MethodReader reader = Messages.methodReader(queue.createTailer("billing"), failsOnTwo);
            assertThat(reader.readOne()).isTrue();
            assertThatThrownBy(reader::readOne).hasMessage("crash while handling 2");
            reader.tailer().close();
        }
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Narrow handler = seen::add;
            MethodReader reader = Messages.methodReader(queue.createTailer("billing"), handler);
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.readOne()).isFalse();
        }
        assertThat(seen).containsExactly(1, 2);
    }

    interface Overloaded {
        void on(int value);

        void on(String value);
    }

    interface Returning {
        int compute(int value);
    }

    @Test
    void shouldRefuseTypesThatCannotBeMethodWriters() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            assertThatThrownBy(() -> Messages.methodWriter(appender, Overloaded.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overloads on");
            assertThatThrownBy(() -> Messages.methodWriter(appender, Returning.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("returns int");
            assertThatThrownBy(() -> Messages.methodWriter(appender, ArrayList.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is a class");
            assertThatThrownBy(() -> Messages.methodReader(queue.createTailer(), new Object()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("implements no interface");
        }
    }

    @Test
    void shouldLeaveTheAppenderUsableWhenAnArgumentCannotBeWritten() {
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1 << 20).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            Wide writer = Messages.methodWriter(appender, Wide.class);
            assertThatThrownBy(() -> writer.added("x".repeat(4 << 20))).isInstanceOf(RuntimeException.class);
            writer.known(5);
            List<Integer> seen = new ArrayList<>();
            Narrow handler = seen::add;
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            while (reader.readOne()) {
                // drain
            }
            assertThat(seen).containsExactly(5);
            assertThat(reader.unknownMethodsSkipped()).isZero();
        }
    }

    @Test
    void shouldWriteAndReadAcrossRollCycles() {
        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
        List<Integer> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).clock(clock)
                .blockSize(64 * 1024).build()) {
            Narrow writer = Messages.methodWriter(queue.acquireAppender(), Narrow.class);
            Narrow handler = seen::add;
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            for (int i = 0; i < 6; i++) {
                writer.known(i);
                if (i % 2 == 1) {
                    clock.advance(Duration.ofSeconds(1));
                }
            }
            while (reader.readOne()) {
                // drain
            }
            assertThat(queue.rollCycle().toCycle(queue.lastIndex()) - queue.rollCycle().toCycle(queue.firstIndex()))
                    .isEqualTo(2);
        }
        assertThat(seen).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void shouldTakeMessagesFromSeveralThreadsEachWithItsOwnWriter() throws Exception {
        int threads = 4;
        int perThread = 2_000;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    Prices writer = Messages.methodWriter(queue.acquireAppender(), Prices.class);
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        writer.price("T" + thread, i, i + 0.5);
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get();
            }
            pool.shutdown();

            long[] next = new long[threads];
            Prices handler = (symbol, bid, ask) -> {
                int thread = symbol.charAt(1) - '0';
                assertThat(bid).isEqualTo(next[thread]++); // each writer's messages in the order it wrote them
                assertThat(ask).isEqualTo(bid + 0.5);
            };
            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);
            while (reader.readOne()) {
                // drain
            }
            assertThat(reader.messagesRead()).isEqualTo((long) threads * perThread);
            assertThat(next).containsOnly(perThread);
        }
    }

    @Test
    void shouldCallEveryHandlerThatHasTheMethod() {
        List<String> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), Narrow.class).known(3);
            Narrow first = value -> seen.add("first " + value);
            Narrow second = value -> seen.add("second " + value);
            ExcerptTailer tailer = queue.createTailer();
            assertThat(Messages.methodReader(tailer, first, second).readOne()).isTrue();
        }
        assertThat(seen).containsExactly("first 3", "second 3");
    }

    /** Handlers whose interface declares a checked exception. */
    public interface Orders {
        void onOrder(String id) throws Exception;
    }

    @Test
    void shouldReadAgainAMessageWhoseHandlerThrewACheckedException() {
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.acquireAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            Orders writer = Messages.methodWriter(appender, Orders.class);
            try {
                writer.onOrder("o-1");
                writer.onOrder("o-2");
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            List<String> handled = new ArrayList<>();
            AtomicBoolean failOnce = new AtomicBoolean(true);
            MethodReader reader = Messages.methodReader(tailer, (Orders) id -> {
                if (failOnce.getAndSet(false)) {
                    throw new IOException("the database is down");
                }
                handled.add(id);
            });

            assertThatThrownBy(reader::readOne).isInstanceOf(IOException.class);
            while (reader.readOne()) {
                // reads what is left
            }

            assertThat(handled).containsExactly("o-1", "o-2");
        }
    }
}
