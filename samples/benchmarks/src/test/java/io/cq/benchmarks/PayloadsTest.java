package io.cq.benchmarks;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class PayloadsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {40, 96, 1024})
    void shouldMakeJsonObjectsOfExactlyTheSizeAskedDifferentForEveryMessage(int size) {
        Set<String> seen = new HashSet<>();
        for (int n = 0; n < 1_000; n++) {
            byte[] payload = Payloads.order(n, size);
            String text = new String(payload, StandardCharsets.US_ASCII);
            assertThat(payload).hasSize(size);
            assertThat(text).startsWith("{\"id\":" + (1_000_000 + n)).endsWith("}").contains("\"symbol\":\"");
            seen.add(text);
        }
        assertThat(seen).hasSize(1_000);
        assertThat(Payloads.order(7, size)).isEqualTo(Payloads.order(7, size));
        assertThat(Payloads.random(7, size)).hasSize(size).isEqualTo(Payloads.random(7, size))
                .isNotEqualTo(Payloads.random(8, size));
    }

    @Test
    void shouldGiveLargeMessagesFillsAndANote() {
        String text = new String(Payloads.order(3, 1024), StandardCharsets.US_ASCII);

        assertThat(text).contains("\"account\":\"ACC-", "\"fills\":[{\"execId\":\"E-1000003-0\"", "\"note\":\"");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cq", "cq-crc", "cq-lz4", "cq-deflate", "cq-aes", "cq-aes-lz4"})
    void shouldStoreThePayloadByteForByteWithItsHeadAsTheDriversValue(String implementation) {
        Path queueDir = dir.resolve(implementation);
        byte[][] payloads = {Payloads.order(1, 1024), Payloads.order(2, 96), Payloads.random(3, 40)};
        try (QueueDriver driver = QueueDriver.open(implementation, queueDir)) {
            for (byte[] payload : payloads) {
                driver.append(Payloads.head(payload), payload);
            }
        }
        try (MappedQueue queue = implementation.equals("cq") ? MappedQueue.builder(queueDir).build()
                : MappedQueue.builder(queueDir).codecs(CodecVariants.codecs(implementation)).build()) {
            ExcerptTailer tailer = queue.createTailer();
            for (byte[] payload : payloads) {
                try (ReadContext dc = tailer.readingDocument()) {
                    byte[] stored = new byte[(int) dc.bytes().length()];
                    dc.bytes().readBytes(stored);
                    assertThat(stored).isEqualTo(payload);
                }
            }
        }
    }
}
