package io.cq.core.message;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.QueueClosedException;
import io.cq.core.ReadContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Request and reply over two queues (docs/messages.md, "Request and reply"), with a responder thread in the test. */
class ReplyReaderTest {
    private static final Duration LONG = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable closeable : toClose.reversed()) {
            closeable.close();
        }
    }

    /** How each queue of a test is opened: plainly here, with codecs in {@code ReplyReaderOnEncryptedQueuesTest}. */
    MappedQueueBuilder builder(Path directory) {
        return MappedQueue.builder(directory);
    }

    private MappedQueue queue(String name) {
        MappedQueue queue = builder(dir.resolve(name)).build();
        toClose.add(queue);
        return queue;
    }

    private ReplyReader reader(MappedQueue replies, String name) {
        ReplyReader reader = ReplyReader.open(replies, name);
        toClose.add(reader);
        return reader;
    }

    /** Answers each request of {@code requests} on {@code replies} with what {@code answer} makes of its text. */
    private void respond(MappedQueue requests, MappedQueue replies, Function<String, Object> answer) {
        Thread responder = Thread.ofPlatform().daemon(true).start(() -> {
            TextHeaders headers = new TextHeaders();
            try (ExcerptTailer tailer = requests.createTailer()) {
                while (!Thread.currentThread().isInterrupted()) {
                    try (ReadContext request = tailer.readingDocument()) {
                        if (!request.isPresent()) {
                            Thread.onSpinWait();
                            continue;
                        }
                        Messages.readHeaders(request, headers);
                        String correlationId = headers.get(RequestReply.CORRELATION_ID);
                        String text = Messages.readObject(request, String.class);
                        try {
                            RequestReply.writeReply(replies.acquireAppender(), answer.apply(text), correlationId);
                        } catch (RuntimeException e) {
                            RequestReply.writeErrorReply(replies.acquireAppender(), correlationId, "responder 'test'",
                                    e);
                        }
                    }
                }
            } catch (RuntimeException closedUnderUs) {
                // the test ended and closed the queues
            }
        });
        toClose.add(responder::interrupt);
    }

    private static <R> CompletableFuture<R> send(ReplyReader reader, MappedQueue requests, Object payload,
                                                 Class<R> type, Duration timeout) {
        return reader.request("queue 'requests'", type, timeout,
                headers -> Messages.writeObject(requests.acquireAppender(), payload, headers));
    }

    @Test
    void shouldCompleteEachRequestWithItsOwnReply() throws Exception {
        MappedQueue requests = queue("requests");
        MappedQueue replies = queue("replies");
        respond(requests, replies, text -> text.toUpperCase());
        ReplyReader reader = reader(replies, "replies");

        CompletableFuture<String> first = send(reader, requests, "ping", String.class, LONG);
        CompletableFuture<String> second = send(reader, requests, "pong", String.class, LONG);

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("PING");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("PONG");
        assertThat(reader.pendingCount()).isZero();
        try (ExcerptTailer tailer = requests.createTailer(); ReadContext request = tailer.readingDocument()) {
            TextHeaders headers = new TextHeaders();
            assertThat(Messages.readHeaders(request, headers)).isTrue();
            assertThat(headers.get(RequestReply.REPLY_TO)).isEqualTo("replies");
            assertThat(headers.get(RequestReply.CORRELATION_ID)).isNotBlank();
        }
    }

    @Test
    void shouldFailWithTheResponderErrorInsteadOfWaitingForTheTimeout() {
        MappedQueue requests = queue("requests");
        MappedQueue replies = queue("replies");
        respond(requests, replies, text -> {
            throw new IllegalStateException("no price for " + text);
        });
        ReplyReader reader = reader(replies, "replies");

        long start = System.nanoTime();
        CompletableFuture<String> reply = send(reader, requests, "XYZ", String.class, Duration.ofMinutes(5));

        assertThatThrownBy(() -> reply.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ReplyErrorException.class)
                .hasMessageStartingWith("responder 'test' failed on request ")
                .hasMessageEndingWith(": java.lang.IllegalStateException: no price for XYZ");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        ReplyErrorException error = (ReplyErrorException) reply.handle((value, e) -> e).join();
        assertThat(error.errorType()).isEqualTo(IllegalStateException.class.getName());
        assertThat(error.errorMessage()).isEqualTo("no price for XYZ");
        assertThat(error.source()).isEqualTo("responder 'test'");
        assertThat(reader.pendingCount()).isZero();
    }

    /** Sends a request with a timeout of 100 ms that nobody answers, and waits for it to time out. */
    private void sendARequestThatTimesOut(ReplyReader reader, MappedQueue requests) {
        CompletableFuture<String> reply = send(reader, requests, "late", String.class, Duration.ofMillis(100));

        assertThatThrownBy(() -> reply.get(10, TimeUnit.SECONDS)).cause().isInstanceOf(ReplyTimeoutException.class)
                .hasMessageStartingWith("no reply within 100 ms to request ")
                .hasMessageEndingWith(" sent to queue 'requests' (replies are read from queue 'replies')");
    }

    @Test
    void shouldTimeOutARequestThatGetsNoReply() {
        sendARequestThatTimesOut(reader(queue("replies"), "replies"), queue("requests"));
    }

    @Test
    void shouldForgetARequestThatTimedOut() {
        ReplyReader reader = reader(queue("replies"), "replies");

        sendARequestThatTimesOut(reader, queue("requests"));
        assertThat(reader.pendingCount()).isZero();
    }

    @Test
    void shouldIgnoreTheLateReplyOfARequestThatTimedOut() throws Exception {
        MappedQueue requests = queue("requests");
        MappedQueue replies = queue("replies");
        ReplyReader reader = reader(replies, "replies");
        sendARequestThatTimesOut(reader, requests);

        respond(requests, replies, text -> "answered " + text);   // now answers the request that timed out
        CompletableFuture<String> next = send(reader, requests, "next", String.class, LONG);
        assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo("answered next");
        assertThat(replies.countExcerpts(replies.firstIndex(), replies.lastIndex() + 1))
                .as("the late reply was written, and skipped").isEqualTo(2);
        assertThat(reader.pendingCount()).isZero();
    }

    @Test
    void shouldGiveEachReaderSharingAReplyQueueOnlyTheRepliesToItsOwnRequests() throws Exception {
        MappedQueue requests = queue("requests");
        MappedQueue replies = queue("replies");
        respond(requests, replies, text -> "re:" + text);
        ReplyReader one = reader(replies, "replies");
        ReplyReader other = reader(replies, "replies");

        List<CompletableFuture<String>> fromOne = new ArrayList<>();
        List<CompletableFuture<String>> fromOther = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            fromOne.add(send(one, requests, "one-" + i, String.class, LONG));
            fromOther.add(send(other, requests, "other-" + i, String.class, LONG));
        }

        for (int i = 0; i < 50; i++) {
            assertThat(fromOne.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("re:one-" + i);
            assertThat(fromOther.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("re:other-" + i);
        }
        assertThat(one.pendingCount()).isZero();
        assertThat(other.pendingCount()).isZero();
    }

    @Test
    void shouldFailWaitingRequestsWhenClosed() {
        MappedQueue requests = queue("requests");
        ReplyReader reader = reader(queue("replies"), "replies");
        CompletableFuture<String> waiting = send(reader, requests, "never answered", String.class, LONG);

        reader.close();

        assertThat(waiting).isCompletedExceptionally();
        assertThatThrownBy(waiting::join).cause().isInstanceOf(QueueClosedException.class)
                .hasMessageContaining("the reply reader of queue 'replies' was closed before request ")
                .hasMessageEndingWith(" to queue 'requests' got a reply");
        assertThat(reader.pendingCount()).isZero();
    }

    @Test
    void shouldRefuseNewRequestsOnceClosed() {
        MappedQueue requests = queue("requests");
        ReplyReader reader = reader(queue("replies"), "replies");

        reader.close();

        assertThatThrownBy(() -> send(reader, requests, "too late", String.class, LONG))
                .isInstanceOf(QueueClosedException.class).hasMessage("the reply reader of queue 'replies' is closed");
    }

    private static void requestFailingToAppend(ReplyReader reader) {
        assertThatThrownBy(() -> reader.request("queue 'requests'", String.class, LONG, headers -> {
            throw new IllegalArgumentException("cannot append");
        })).isInstanceOf(IllegalArgumentException.class).hasMessage("cannot append");
    }

    @Test
    void shouldRethrowWhenARequestsAppendFails() {
        requestFailingToAppend(reader(queue("replies"), "replies"));
    }

    @Test
    void shouldForgetARequestWhoseAppendFailed() {
        ReplyReader reader = reader(queue("replies"), "replies");

        requestFailingToAppend(reader);
        assertThat(reader.pendingCount()).isZero();
    }

    @Test
    void shouldForgetARequestWhoseFutureWasCancelled() {
        MappedQueue requests = queue("requests");
        ReplyReader reader = reader(queue("replies"), "replies");
        CompletableFuture<String> reply = send(reader, requests, "cancelled", String.class, LONG);
        assertThat(reader.pendingCount()).isEqualTo(1);

        reply.cancel(false);

        await().atMost(LONG).until(() -> reader.pendingCount() == 0);
    }
}
