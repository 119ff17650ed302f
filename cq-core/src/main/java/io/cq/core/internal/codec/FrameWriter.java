package io.cq.core.internal.codec;

import io.cq.core.MissingKeyException;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.internal.layout.CodecDescriptor;

import java.security.GeneralSecurityException;
import java.util.zip.CRC32C;
import javax.crypto.SecretKey;

/**
 * Frames an appender's excerpts (docs/file-format.md, "Excerpt codecs"): {@link #frame} compresses, before the write
 * lock is taken; {@link #seal} adds the checksum or encrypts, under it, since the nonce's serial and the excerpt's
 * index (the cipher's associated data) are known only there. The result is {@link #sealed()}, {@link #sealedLength()}
 * bytes, to copy into the record. One per appender: not thread-safe.
 */
public final class FrameWriter {
    private final String queue;
    private final EncryptionKeys keys;
    private final CRC32C crc = new CRC32C();
    private final FileKeys fileKeys = new FileKeys();
    private final byte[] nonce = new byte[CodecDescriptor.NONCE_LENGTH];
    private final byte[] aad = new byte[Long.BYTES];
    private Compressor compressor;
    /** Made by the first encrypted excerpt: its table takes 64 KiB. */
    private ExcerptGcm gcm;
    private byte[] packed = new byte[256];
    private byte[] sealedBytes = new byte[256];
    /** The frame: the excerpt itself, or {@code packed}. */
    private byte[] frame;
    private int frameLength;
    private byte[] sealed;
    private int sealedLength;

    /** @param keys the queue's keys; null for a queue that does not encrypt */
    public FrameWriter(String queue, EncryptionKeys keys) {
        this.queue = queue;
        this.keys = keys;
    }

    /**
     * Frames {@code length} bytes of {@code body} for a file framed as {@code file} says: compressed when the file
     * compresses, the excerpt reaches its threshold and compressing makes it smaller; else stored. {@code body} must
     * stay unchanged until the frame is sealed, and must have room for 4 bytes past {@code length} when that is
     * cheaper than a copy (a checksum goes there); else it is copied.
     */
    public void frame(FileCodecs file, byte[] body, int length) {
        if (!file.compressing()) {
            frame = body;
            frameLength = length;
            return;
        }
        int head = CodecDescriptor.METHOD_LENGTH + CodecDescriptor.RAW_LENGTH_LENGTH;
        if (length >= file.threshold()) {
            if (compressor == null) {
                compressor = Frames.compressor(file.compression());
            }
            packed = Frames.atLeast(packed, head + compressor.maxCompressedLength(length)
                    + CodecDescriptor.CHECKSUM_LENGTH);
            int compressed = compressor.compress(body, 0, length, packed, head);
            if (head + compressed < CodecDescriptor.METHOD_LENGTH + length) {
                packed[0] = (byte) file.compression().id();
                Frames.putInt(packed, CodecDescriptor.METHOD_LENGTH, length);
                frame = packed;
                frameLength = head + compressed;
                return;
            }
        }
        // Stored: the method byte, then the excerpt.
        packed = Frames.atLeast(packed, CodecDescriptor.METHOD_LENGTH + length + CodecDescriptor.CHECKSUM_LENGTH);
        packed[0] = CodecDescriptor.STORED;
        System.arraycopy(body, 0, packed, CodecDescriptor.METHOD_LENGTH, length);
        frame = packed;
        frameLength = CodecDescriptor.METHOD_LENGTH + length;
    }

    /**
     * Under the write lock: seals the frame for the excerpt at {@code index} of a file with {@code salt}.
     *
     * @return the sealed length
     */
    public int seal(FileCodecs file, long index, NonceSerials serials) {
        if (file.encrypted()) {
            encrypt(file.salt(), index, serials.take());
        } else if (file.checksummed()) {
            byte[] f = frame;
            if (f.length < frameLength + CodecDescriptor.CHECKSUM_LENGTH) {
                packed = Frames.atLeast(packed, frameLength + CodecDescriptor.CHECKSUM_LENGTH);
                System.arraycopy(f, 0, packed, 0, frameLength);
                f = packed;
            }
            crc.reset();
            Frames.putLong(aad, 0, index);
            crc.update(aad, 0, Long.BYTES);
            crc.update(f, 0, frameLength);
            Frames.putInt(f, frameLength, (int) crc.getValue());
            sealed = f;
            sealedLength = frameLength + CodecDescriptor.CHECKSUM_LENGTH;
        } else {
            sealed = frame;
            sealedLength = frameLength;
        }
        return sealedLength;
    }

    private void encrypt(byte[] salt, long index, long serial) {
        if (keys == null) {
            throw new MissingKeyException("queue " + queue + " is encrypted and was opened without its keys: give "
                    + "them to MappedQueueBuilder.encryptionKeys to write", 0);
        }
        int keyId = keys.currentKeyId();
        SecretKey key = fileKeys.fileKey(keys, salt, keyId);
        if (key == null) {
            throw new MissingKeyException("queue " + queue + ": the current key id " + String.format("0x%08x", keyId)
                    + " has no key (" + keys.describe() + ")", keyId);
        }
        Frames.putInt(nonce, 0, Frames.session());
        Frames.putLong(nonce, 4, serial);
        Frames.putLong(aad, 0, index);
        int head = CodecDescriptor.KEY_ID_LENGTH + CodecDescriptor.NONCE_LENGTH;
        sealedBytes = Frames.atLeast(sealedBytes, head + frameLength + CodecDescriptor.TAG_LENGTH);
        byte[] out = sealedBytes;
        Frames.putInt(out, 0, keyId);
        System.arraycopy(nonce, 0, out, CodecDescriptor.KEY_ID_LENGTH, CodecDescriptor.NONCE_LENGTH);
        try {
            sealedLength = head + gcm().seal(key, nonce, aad, frame, frameLength, out, head);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM encryption failed for queue " + queue + ": " + e.getMessage(), e);
        }
        sealed = out;
    }

    private ExcerptGcm gcm() {
        return gcm != null ? gcm : (gcm = new ExcerptGcm());
    }

    /** The sealed bytes, from 0: valid until the next {@link #frame}. */
    public byte[] sealed() {
        return sealed;
    }

    public int sealedLength() {
        return sealedLength;
    }
}
