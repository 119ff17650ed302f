package io.cq.core.internal.message;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * Where a document is written (by Jackson or {@link RecordEncoder}) before its length is known and it is copied into
 * the excerpt; reused.
 */
final class GrowableOutput extends OutputStream {
    private byte[] buffer = new byte[256];
    private int count;

    void reset() {
        count = 0;
    }

    byte[] buffer() {
        return buffer;
    }

    int count() {
        return count;
    }

    @Override
    public void write(int b) {
        ensure(1);
        buffer[count++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, count, length);
        count += length;
    }

    /** Counts {@code bytes} written straight into {@link #buffer()} after {@link #ensure(int)}. */
    void advance(int bytes) {
        count += bytes;
    }

    /** Makes room for {@code more} bytes; {@link #buffer()} may be a new array afterwards. */
    void ensure(int more) {
        if (count + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, count + more));
        }
    }
}
