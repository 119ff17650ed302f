package io.cq.core;


/**
 * An encrypted queue was written or read without the key it needs: opened for writing without keys, or an excerpt
 * names a key id its reader was not given. Names the queue and the key id; nothing was written or read.
 */
public final class MissingKeyException extends QueueException {
    private final int keyId;

    public MissingKeyException(String message, int keyId) {
        super(message);
        this.keyId = keyId;
    }

    /** The id of the key that was needed; 0 when no keys were given at all. */
    public int keyId() {
        return keyId;
    }
}
