package io.cq.core.internal.codec;

import io.cq.core.CorruptQueueException;
import io.cq.core.MissingKeyException;
import io.cq.core.codec.Compression;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.internal.layout.CodecDescriptor;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.zip.CRC32C;
import javax.crypto.AEADBadTagException;
import javax.crypto.SecretKey;

/**
 * Opens framed excerpts (docs/file-format.md, "Excerpt codecs"): checks the checksum or decrypts and checks the tag,
 * then decompresses. The excerpt is then {@link #length()} bytes of {@link #segment()} from {@link #offset()}: the
 * record itself where nothing had to be undone but a checksum, else this reader's own buffer, valid until the next
 * {@link #open}. Any mismatch is a {@link CorruptQueueException} naming the file, the record's position and the
 * excerpt's index. One per tailer: not thread-safe.
 */
public final class FrameReader {
    private final String queue;
    private final EncryptionKeys keys;
    private final CRC32C crc = new CRC32C();
    private final FileKeys fileKeys = new FileKeys();
    private final byte[] nonce = new byte[CodecDescriptor.NONCE_LENGTH];
    private final byte[] aad = new byte[Long.BYTES];
    private Compressor lz4;
    private Compressor deflate;
    /** Made by the first encrypted excerpt: its table takes 64 KiB. */
    private ExcerptGcm gcm;
    private byte[] in = new byte[256];
    private byte[] plain = new byte[256];
    private byte[] out = new byte[256];
    private MemorySegment plainSegment = MemorySegment.ofArray(plain);
    private MemorySegment outSegment = MemorySegment.ofArray(out);
    /** A view of the chunk last checked, for CRC-32C without copying. */
    private MemorySegment viewed;
    private ByteBuffer view;

    private MemorySegment segment;
    private long offset;
    private int length;
    /** What the last frame opened held, for {@code cq dump}: its key id, compression method and stored length. */
    private int frameKeyId;
    private int frameMethod;
    private int frameStored;

    /** @param keys the reader's keys; null when it was given none */
    public FrameReader(String queue, EncryptionKeys keys) {
        this.queue = queue;
        this.keys = keys;
    }

    /**
     * Opens the record of {@code recordLength} bytes at {@code at} in {@code chunk}: the excerpt at {@code index} of
     * {@code file} (named {@code path}), whose record starts at {@code position}.
     */
    public void open(FileCodecs file, MemorySegment chunk, long at, int recordLength, long index, Path path,
                     long position) {
        if (file.encrypted()) {
            decrypt(file, chunk, at, recordLength, index, path, position);
            unframe(file, plainSegment, 0, length, index, path, position);
        } else if (file.checksummed()) {
            int f = recordLength - CodecDescriptor.CHECKSUM_LENGTH;
            if (f < (file.compressing() ? CodecDescriptor.METHOD_LENGTH : 0)) {
                throw damaged(path, position, index, "record of " + recordLength + " bytes is too short for its "
                        + "frame and checksum");
            }
            int stored = chunk.get(Frames.INT, at + f);
            int computed = checksum(chunk, at, f, index);
            if (stored != computed) {
                throw damaged(path, position, index, String.format("checksum mismatch: stored 0x%08x, computed "
                        + "0x%08x over %d bytes; the excerpt's bytes were changed after it was written, or a damaged "
                        + "record before it led here from another excerpt's place", stored, computed, f));
            }
            unframe(file, chunk, at, f, index, path, position);
        } else {
            unframe(file, chunk, at, recordLength, index, path, position);
        }
    }

    /** As {@link Crc32cTrailer#append} computes it: small excerpts copied, larger ones through a view of the chunk. */
    private int checksum(MemorySegment chunk, long at, int n, long index) {
        crc.reset();
        Frames.putLong(aad, 0, index);
        crc.update(aad, 0, Long.BYTES);
        if (n <= Crc32cTrailer.COPY_LIMIT) {
            in = Frames.atLeast(in, n);
            MemorySegment.copy(chunk, Frames.BYTE, at, in, 0, n);
            crc.update(in, 0, n);
        } else if (chunk.byteSize() <= Integer.MAX_VALUE && chunk.isNative()) {
            if (chunk != viewed) {
                view = chunk.asByteBuffer();
                viewed = chunk;
            }
            view.limit((int) at + n).position((int) at);
            crc.update(view);
        } else {
            in = Frames.atLeast(in, n);
            MemorySegment.copy(chunk, Frames.BYTE, at, in, 0, n);
            crc.update(in, 0, n);
        }
        return (int) crc.getValue();
    }

    private void decrypt(FileCodecs file, MemorySegment chunk, long at, int recordLength, long index, Path path,
                         long position) {
        int head = CodecDescriptor.KEY_ID_LENGTH + CodecDescriptor.NONCE_LENGTH;
        if (recordLength < CodecDescriptor.ENCRYPTION_OVERHEAD) {
            throw damaged(path, position, index, "record of " + recordLength + " bytes is too short for its key id, "
                    + "nonce and tag");
        }
        int keyId = chunk.get(Frames.INT, at);
        frameKeyId = keyId;
        if (keys == null) {
            throw new MissingKeyException("queue " + queue + ": excerpt " + index + " (" + path + " at " + position
                    + ") is encrypted with key id " + hex(keyId) + ", and the queue was opened without keys: give "
                    + "them to MappedQueueBuilder.encryptionKeys", keyId);
        }
        SecretKey key = fileKeys.fileKey(keys, file.salt(), keyId);
        if (key == null) {
            throw new MissingKeyException("queue " + queue + ": excerpt " + index + " (" + path + " at " + position
                    + ") is encrypted with key id " + hex(keyId) + ", which this reader's keys lack ("
                    + keys.describe() + ")", keyId);
        }
        MemorySegment.copy(chunk, Frames.BYTE, at + CodecDescriptor.KEY_ID_LENGTH, nonce, 0,
                CodecDescriptor.NONCE_LENGTH);
        int sealedLength = recordLength - head;
        in = Frames.atLeast(in, sealedLength);
        MemorySegment.copy(chunk, Frames.BYTE, at + head, in, 0, sealedLength);
        if (plain.length < sealedLength) {
            plain = Frames.atLeast(plain, sealedLength);
            plainSegment = MemorySegment.ofArray(plain);
        }
        Frames.putLong(aad, 0, index);
        try {
            length = gcm().open(key, nonce, aad, in, sealedLength, plain);
        } catch (AEADBadTagException e) {
            throw damaged(path, position, index, "authentication tag does not match: the excerpt's bytes were "
                    + "changed after it was written, or key id " + hex(keyId) + " is not the key it was encrypted "
                    + "with");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM decryption failed for queue " + queue + ": " + e.getMessage(), e);
        }
    }

    /** The frame of {@code n} bytes at {@code at} in {@code source}: the excerpt, or its method, length and data. */
    private void unframe(FileCodecs file, MemorySegment source, long at, int n, long index, Path path,
                         long position) {
        frameMethod = CodecDescriptor.STORED;
        frameStored = n;
        if (!file.compressing()) {
            segment = source;
            offset = at;
            length = n;
            return;
        }
        if (n < CodecDescriptor.METHOD_LENGTH) {
            throw damaged(path, position, index, "frame of " + n + " bytes has no method byte");
        }
        int method = source.get(Frames.BYTE, at) & 0xff;
        frameMethod = method;
        if (method == CodecDescriptor.STORED) {
            segment = source;
            offset = at + CodecDescriptor.METHOD_LENGTH;
            length = n - CodecDescriptor.METHOD_LENGTH;
            return;
        }
        Compression compression = Compression.ofId(method);
        int head = CodecDescriptor.METHOD_LENGTH + CodecDescriptor.RAW_LENGTH_LENGTH;
        if (compression == null || compression == Compression.NONE || n < head) {
            throw damaged(path, position, index, "frame names compression method " + method + " in " + n
                    + " bytes; this cq knows 0 (stored), 1 (LZ4) and 2 (Deflate)");
        }
        int raw = source.get(Frames.INT, at + CodecDescriptor.METHOD_LENGTH);
        int data = n - head;
        frameStored = data;
        // LZ4 expands at most 255-fold and Deflate about 1032-fold: a larger length is damage, not a reason to
        // allocate it.
        if (raw < 0 || raw > Math.min(1 << 29, data * 1100L + 64)) {
            throw damaged(path, position, index, "frame says its excerpt is " + raw + " bytes long");
        }
        byte[] src;
        int srcOffset;
        if (source == plainSegment) {
            src = plain;
            srcOffset = (int) at + head;
        } else {
            in = Frames.atLeast(in, data);
            MemorySegment.copy(source, Frames.BYTE, at + head, in, 0, data);
            src = in;
            srcOffset = 0;
        }
        if (out.length < raw + 1) {
            out = Frames.atLeast(out, raw + 1);
            outSegment = MemorySegment.ofArray(out);
        }
        try {
            compressor(compression).decompress(src, srcOffset, data, out, 0, raw);
        } catch (IllegalArgumentException e) {
            throw damaged(path, position, index, e.getMessage());
        }
        segment = outSegment;
        offset = 0;
        length = raw;
    }

    private Compressor compressor(Compression method) {
        if (method == Compression.LZ4) {
            return lz4 != null ? lz4 : (lz4 = Frames.compressor(method));
        }
        return deflate != null ? deflate : (deflate = Frames.compressor(method));
    }

    private ExcerptGcm gcm() {
        return gcm != null ? gcm : (gcm = new ExcerptGcm());
    }

    private static CorruptQueueException damaged(Path path, long position, long index, String problem) {
        return new CorruptQueueException(path, position, "excerpt " + index + ": " + problem);
    }

    private static String hex(int id) {
        return String.format("0x%08x", id);
    }

    public MemorySegment segment() {
        return segment;
    }

    public long offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** The key id the last encrypted frame opened (or tried) names. */
    public int keyId() {
        return frameKeyId;
    }

    /** The compression method id of the last frame opened: {@link CodecDescriptor#STORED} when not compressed. */
    public int method() {
        return frameMethod;
    }

    /** How many bytes the last frame opened stored its excerpt in: the compressed data's, or the excerpt's own. */
    public int storedLength() {
        return frameStored;
    }

    /** The key id an encrypted record of at least {@link CodecDescriptor#KEY_ID_LENGTH} bytes at {@code at} names. */
    public static int keyIdAt(MemorySegment chunk, long at) {
        return chunk.get(Frames.INT, at);
    }
}
