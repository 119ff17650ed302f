package io.cq.core.internal.index;

/** A reusable (position, sequence) pair: where a record is and which excerpt number it is. Not thread-safe. */
public final class Position {
    private long position;
    private long sequence;

    public void set(long position, long sequence) {
        this.position = position;
        this.sequence = sequence;
    }

    public long position() {
        return position;
    }

    public long sequence() {
        return sequence;
    }
}
