package io.cq.integration.mapping;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.integration.Trade;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.messaging.Message;
import org.springframework.messaging.support.MessageBuilder;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

class ExcerptMessageConverterTest {
    private static final String TEXT = "AAPL";                  // also valid Base64, which Jackson would decode
    private static final byte[] BYTES = TEXT.getBytes(UTF_8);

    @TempDir
    Path dir;

    @Test
    void shouldReadEnvelopedTextAndBytesAsTheSameExcerptsWithoutHeadersWouldRead() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            MessageExcerptWriter plain = new MessageExcerptWriter(new String[0], false);
            MessageExcerptWriter enveloping = new MessageExcerptWriter(new String[] {"trace*"}, false);
            for (Object payload : List.of(TEXT, BYTES)) {
                plain.write(queue.acquireAppender(), MessageBuilder.withPayload(payload).build());
                enveloping.write(queue.acquireAppender(),
                        MessageBuilder.withPayload(payload).setHeader("traceId", "t-1").build());
            }

            List<Message<?>> asBytes = readAll(queue, byte[].class);
            List<Message<?>> asText = readAll(queue, String.class);

            assertThat(asBytes).extracting(message -> (byte[]) message.getPayload())
                    .containsExactly(BYTES, BYTES, BYTES, BYTES);
            assertThat(asText).extracting(message -> (Object) message.getPayload())
                    .containsExactly(TEXT, TEXT, TEXT, TEXT);
            assertThat(asBytes.get(1).getHeaders()).containsEntry("traceId", "t-1");
            assertThat(asText.get(3).getHeaders()).containsEntry("traceId", "t-1");
        }
    }

    @Test
    void shouldGiveAByteArrayReaderTheWholeEnvelopeOfAnObject() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            new MessageExcerptWriter(new String[] {"trace*"}, false).write(queue.acquireAppender(),
                    MessageBuilder.withPayload(new Trade("AAPL", 100, 189.25)).setHeader("traceId", "t-1").build());

            byte[] copied = (byte[]) readAll(queue, byte[].class).getFirst().getPayload();

            assertThat(copied).containsExactly(queue.createTailer().readBytes());
        }
    }

    private static List<Message<?>> readAll(MappedQueue queue, Class<?> payloadType) {
        ExcerptMessageConverter converter = new ExcerptMessageConverter(queue, payloadType);
        ExcerptTailer tailer = queue.createTailer();
        List<Message<?>> messages = new ArrayList<>();
        while (true) {
            try (ReadContext excerpt = tailer.readingDocument()) {
                if (!excerpt.isPresent()) {
                    return messages;
                }
                messages.add(converter.toMessage(excerpt));
            }
        }
    }
}
