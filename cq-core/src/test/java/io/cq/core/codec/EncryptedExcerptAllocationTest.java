package io.cq.core.codec;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;
import io.cq.core.support.AllocatedBytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Random;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Encrypted excerpts small enough for cq's own GCM (docs/codecs.md) are appended and read without allocating: counted
 * with the JVM's per-thread allocation counter around 100,000 of each after warm-up (allocation, not timing).
 */
class EncryptedExcerptAllocationTest {
    private static final int WARM_UP = 50_000;
    private static final int COUNTED = 100_000;

    @TempDir
    Path dir;

    private static long readOne(ExcerptTailer tailer, byte[] into) {
        try (ReadContext context = tailer.readingDocument()) {
            ExcerptBytes bytes = context.bytes();
            int length = (int) bytes.length();
            bytes.readBytes(into, 0, length);
            return length;
        }
    }

    @Test
    void shouldAppendAndReadEncryptedFortyByteExcerptsWithoutAllocating() {
        byte[] key = new byte[16];
        new Random(4).nextBytes(key);
        EncryptionKeys keys = EncryptionKeys.of(new SecretKeySpec(key, "AES"));
        byte[] payload = new byte[40];
        byte[] into = new byte[40];
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.DAILY)
                .codecs(ExcerptCodecs.none().withEncryption(keys)).build();
             ExcerptAppender appender = queue.acquireAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            long read = 0;
            for (int i = 0; i < WARM_UP; i++) {
                payload[0] = (byte) i;
                appender.writeBytes(payload);
                read += readOne(tailer, into);
            }

            long before = AllocatedBytes.now();
            for (int i = 0; i < COUNTED; i++) {
                payload[0] = (byte) i;
                appender.writeBytes(payload);
                read += readOne(tailer, into);
            }
            long perExcerpt = AllocatedBytes.since(before) / COUNTED;

            assertThat(read).isEqualTo(40L * (WARM_UP + COUNTED));
            assertThat(into[0]).isEqualTo((byte) (COUNTED - 1));
            assertThat(perExcerpt).as("bytes allocated per encrypted excerpt appended and read").isZero();
        }
    }
}
