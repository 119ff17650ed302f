package io.cq.core.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A method reader driven by a caller that owns the reading loop (a listener container). */
class DispatchTest {
    @TempDir
    Path dir;

    interface Orders {
        void placed(String id, long quantity);
    }

    /** Overloads a method name, which a method reader refuses: only usable with the handler's interfaces named. */
    interface Lifecycle {
        void start();

        void start(long delay);
    }

    static final class Handler implements Orders, Lifecycle {
        final List<String> calls = new ArrayList<>();
        boolean failNext;

        @Override
        public void placed(String id, long quantity) {
            if (failNext) {
                failNext = false;
                throw new IllegalStateException("downstream is down");
            }
            calls.add(id + " x" + quantity);
        }

        @Override
        public void start() {
        }

        @Override
        public void start(long delay) {
        }
    }

    private static void appendTwoOrdersAndAText(MappedQueue queue) {
        Orders orders = Messages.methodWriter(queue.acquireAppender(), Orders.class);
        orders.placed("o-1", 10);
        orders.placed("o-2", 20);
        queue.acquireAppender().writeText("not a message");
    }

    /** Dispatches each of the next excerpts in a read context the caller opens and closes. */
    private static List<Boolean> dispatchEach(MethodReader reader, ExcerptTailer tailer, int excerpts) {
        List<Boolean> dispatched = new ArrayList<>();
        for (int i = 0; i < excerpts; i++) {
            try (ReadContext context = tailer.readingDocument()) {
                dispatched.add(reader.dispatch(context));
            }
        }
        return dispatched;
    }

    @Test
    void shouldLeaveCommitAndRollbackOfADispatchedContextToTheCaller() {
        Handler handler = new Handler();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendTwoOrdersAndAText(queue);
            MethodReader reader = MethodReaderBuilder.forDispatch().handler(handler, Orders.class).build();
            ExcerptTailer tailer = queue.createTailer("container");

            handler.failNext = true;
            try (ReadContext context = tailer.readingDocument()) {
                assertThatThrownBy(() -> reader.dispatch(context)).hasMessage("downstream is down");
                context.rollbackOnClose();
            }
            dispatchEach(reader, tailer, 3);

            assertThat(handler.calls).containsExactly("o-1 x10", "o-2 x20");
        }
    }

    @Test
    void shouldSayWhetherItDispatchedEachExcerptAsAMessage() {
        Handler handler = new Handler();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendTwoOrdersAndAText(queue);
            MethodReader reader = MethodReaderBuilder.forDispatch().handler(handler, Orders.class).build();

            List<Boolean> dispatched = dispatchEach(reader, queue.createTailer("container"), 3);

            assertThat(dispatched).containsExactly(true, true, false);
        }
    }

    @Test
    void shouldCountWhatItDispatchedAndWhatItSkipped() {
        Handler handler = new Handler();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            appendTwoOrdersAndAText(queue);
            MethodReader reader = MethodReaderBuilder.forDispatch().handler(handler, Orders.class).build();

            dispatchEach(reader, queue.createTailer("container"), 3);

            assertThat(reader.messagesRead()).isEqualTo(2);
            assertThat(reader.otherExcerptsSkipped()).isEqualTo(1);
        }
    }

    @Test
    void shouldRefuseToReadOnItsOwnWhenBuiltForDispatch() {
        MethodReader reader = MethodReaderBuilder.forDispatch().handler(new Handler(), Orders.class).build();

        assertThat(reader.tailer()).isNull();
        assertThatThrownBy(reader::readOne).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("dispatch");
    }

    @Test
    void shouldRefuseAnInterfaceTheHandlerDoesNotImplement() {
        Handler handler = new Handler();

        assertThatThrownBy(() -> MethodReaderBuilder.forDispatch().handler(handler, Runnable.class).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not implement interface java.lang.Runnable");
    }

    @Test
    void shouldIgnoreTheInterfacesOfTheHandlerThatAreNotNamed() {
        Handler handler = new Handler();

        assertThatThrownBy(() -> MethodReaderBuilder.forDispatch().handlers(handler).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start");
        assertThat(MethodReaderBuilder.forDispatch().handler(handler, Orders.class).build()).isNotNull();
    }
}
