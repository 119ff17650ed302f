package io.cq.core.message;

import io.cq.core.MappedQueue;
import io.cq.core.MappedQueueBuilder;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;

import java.nio.file.Path;
import javax.crypto.spec.SecretKeySpec;

/** Every request/reply case of {@link ReplyReaderTest}, with requests and replies on encrypted, compressed queues. */
class ReplyReaderOnEncryptedQueuesTest extends ReplyReaderTest {
    private static final ExcerptCodecs CODECS = ExcerptCodecs.none().withCompression(Compression.LZ4, 32)
            .withEncryption(EncryptionKeys.of(new SecretKeySpec(new byte[32], "AES")));

    @Override
    MappedQueueBuilder builder(Path directory) {
        return MappedQueue.builder(directory).codecs(CODECS);
    }
}
