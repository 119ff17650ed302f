package io.cq.core.internal.queue;

import io.cq.core.CodecsMismatchException;
import io.cq.core.MissingKeyException;
import io.cq.core.QueueSettings;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;

import java.nio.file.Path;

/**
 * Which codecs an opened queue reads and writes with: the ones its table store records, with the keys the caller
 * gave (docs/codecs.md). Refuses what would mix formats or write an encrypted queue without its keys.
 */
final class CodecsInForce {
    private CodecsInForce() {
    }

    static ExcerptCodecs of(Path directory, ExcerptCodecs recorded, QueueSettings requested, boolean chosen) {
        if (chosen && !recorded.sameFormatAs(requested.codecs())) {
            throw new CodecsMismatchException("queue " + directory + " was created with codecs: "
                    + recorded.describe() + " (kept in its files); this process asked for "
                    + requested.codecs().describe() + ". A queue's codecs are fixed when it is created: ask for its "
                    + "own, or none, or copy it into a new queue", recorded);
        }
        EncryptionKeys keys = requested.encryptionKeys();
        if (!recorded.encrypted() && keys != null) {
            throw new CodecsMismatchException("queue " + directory + " is not encrypted (its codecs: "
                    + recorded.describe() + "), yet encryption keys were given: nothing written to it would be "
                    + "encrypted. Create an encrypted queue in another directory, or give no keys", recorded);
        }
        if (recorded.encrypted() && keys == null && !requested.readOnly()) {
            throw new MissingKeyException("queue " + directory + " is encrypted (" + recorded.describe() + ") and "
                    + "was opened for writing without its keys: give them (MappedQueueBuilder.encryptionKeys, "
                    + "cq.queues.<name>.encryption.*), or open it read-only", 0);
        }
        return recorded.withKeys(keys);
    }
}
