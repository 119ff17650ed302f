package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.WriteContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Cases a review found the message layer got wrong, each kept by the test that shows it right. */
class MessageEdgeCasesTest {
    @TempDir
    Path dir;

    public static class Base {
        public int a;
    }

    public static final class Sub extends Base {
        public int b;
    }

    public interface Shape {
    }

    public interface Drawing {
        void base(Base base);
    }

    public interface Shapes {
        void draw(Shape shape);
    }

    public interface Listener<T> {
        void on(T value);
    }

    public static final class TickV1 implements BytesMessage {
        public long instrument;

        @Override
        public void writeTo(ExcerptBytes bytes) {
            bytes.writeLong(instrument);
        }

        @Override
        public void readFrom(ExcerptBytes bytes) {
            instrument = bytes.readLong();
        }
    }

    /** A newer version that appended a field, reading it only when the writer wrote it. */
    public static final class TickV2 implements BytesMessage {
        public long instrument;
        public long venue;

        @Override
        public void writeTo(ExcerptBytes bytes) {
            bytes.writeLong(instrument).writeLong(venue);
        }

        @Override
        public void readFrom(ExcerptBytes bytes) {
            instrument = bytes.readLong();
            venue = bytes.remaining() >= Long.BYTES ? bytes.readLong() : -1;
        }
    }

    public interface TicksV1 {
        void onTick(TickV1 tick, long sequence);
    }

    public interface TicksV2 {
        void onTick(TickV2 tick, long sequence);
    }

    @Test
    void shouldWriteTheFieldsOfASubclassPassedForANonFinalParameter() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Sub sub = new Sub();
            sub.a = 1;
            sub.b = 2;
            Messages.methodWriter(queue.acquireAppender(), Drawing.class).base(sub);

            try (ReadContext context = queue.createTailer().readingDocument()) {
                assertThat(Messages.toJson(context))
                        .isEqualTo("{\"method\":\"base\",\"arguments\":[{\"a\":1,\"b\":2}]}");
            }
        }
    }

    @Test
    void shouldRefuseAnInterfaceParameterThatNoReaderCouldDecode() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            assertThatThrownBy(() -> Messages.methodWriter(appender, Shapes.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without @JsonTypeInfo");
        }
    }

    @Test
    void shouldRefuseAGenericInterface() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            assertThatThrownBy(() -> Messages.methodWriter(appender, Listener.class))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("type variable");
        }
    }

    @Test
    void shouldLetANewerSelfWrittenMessageStopAtItsOwnEndBeforeTheNextArgument() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            TickV1 tick = new TickV1();
            tick.instrument = 7;
            Messages.methodWriter(queue.acquireAppender(), TicksV1.class).onTick(tick, 42);
            List<String> seen = new ArrayList<>();
            TicksV2 handler = (received, sequence) -> seen.add(received.instrument + "/" + received.venue + "/"
                    + sequence);

            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);

            assertThat(reader.readOne()).isTrue();
            assertThat(seen).containsExactly("7/-1/42");
        }
    }

    @Test
    void shouldReportGarbledTextInsideAMessageAsAMalformedMessage() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), TicksV1.class).onTick(new TickV1(), 1);
            byte[] message;
            try (ReadContext context = queue.createTailer().readingDocument()) {
                message = new byte[(int) context.bytes().length()];
                context.bytes().readBytes(message);
            }
            // keep the header up to the argument count, then one text argument whose length prefix never ends
            int header = 4 + 1 + 1 + "onTick".length() + 1;
            try (WriteContext context = queue.acquireAppender().writingDocument()) {
                context.bytes().writeBytes(message, 0, header);
                context.bytes().writeByte((byte) 'T');
                for (int i = 0; i < 11; i++) {
                    context.bytes().writeByte((byte) 0xFF);
                }
            }
            ExcerptTailer tailer = queue.createTailer();
            tailer.readText();
            try (ReadContext context = tailer.readingDocument()) {
                assertThatThrownBy(() -> Messages.toJson(context)).isInstanceOf(MessageDecodingException.class)
                        .hasMessageContaining("malformed");
            }
        }
    }

    @Test
    void shouldRefuseToWriteNullAsAnObject() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            assertThatThrownBy(() -> Messages.writeObject(appender, null)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void shouldRefuseToReadAnObjectFromACallWithoutArguments() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), NoArguments.class).ping();

            assertThatThrownBy(() -> Messages.readObject(queue.createTailer(), String.class))
                    .isInstanceOf(MessageDecodingException.class).hasMessageContaining("without arguments");
        }
    }

    public interface NoArguments {
        void ping();
    }

    /** An interface from a class loader of its own is in another module than cq: no hidden class can go next to it. */
    @Test
    void shouldWriteAndReadThroughAnInterfaceLoadedByAnotherClassLoader() throws Exception {
        Path source = Files.createDirectories(dir.resolve("src/com/example")).resolve("Events.java");
        Files.writeString(source,
                "package com.example; public interface Events { void onPrice(String symbol, double price); }");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThat(ToolProvider.getSystemJavaCompiler()
                .run(null, null, null, "-d", classes.toString(), source.toString())).isZero();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                getClass().getClassLoader());
             MappedQueue queue = MappedQueue.builder(dir.resolve("q")).build()) {
            Class<?> events = loader.loadClass("com.example.Events");
            Object writer = Messages.methodWriter(queue.acquireAppender(), events);
            Method onPrice = events.getMethod("onPrice", String.class, double.class);
            onPrice.invoke(writer, "AAPL", 189.25);
            List<String> seen = new ArrayList<>();
            Object handler = Proxy.newProxyInstance(loader, new Class<?>[] {events},
                    (proxy, method, args) -> seen.add(method.getName() + " " + args[0] + " " + args[1]) ? null : null);

            MethodReader reader = Messages.methodReader(queue.createTailer(), handler);

            assertThat(reader.readOne()).isTrue();
            assertThat(seen).containsExactly("onPrice AAPL 189.25");
        }
    }
}
