package io.cq.benchmarks.messages;

import io.cq.core.ExcerptBytes;
import io.cq.core.message.BytesMessage;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesMarshallable;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * A hot message that writes and reads itself: the same four fields through cq's {@link BytesMessage} and
 * Chronicle's {@link BytesMarshallable}, so both libraries move exactly the same bytes.
 */
public final class Tick implements BytesMessage, BytesMarshallable {
    public long instrument;
    public double bid;
    public double ask;
    public int size;

    @Override
    public void writeTo(ExcerptBytes bytes) {
        bytes.writeLong(instrument).writeDouble(bid).writeDouble(ask).writeInt(size);
    }

    @Override
    public void readFrom(ExcerptBytes bytes) {
        instrument = bytes.readLong();
        bid = bytes.readDouble();
        ask = bytes.readDouble();
        size = bytes.readInt();
    }

    @Override
    public void writeMarshallable(BytesOut<?> bytes) {
        bytes.writeLong(instrument);
        bytes.writeDouble(bid);
        bytes.writeDouble(ask);
        bytes.writeInt(size);
    }

    @Override
    public void readMarshallable(BytesIn<?> bytes) {
        instrument = bytes.readLong();
        bid = bytes.readDouble();
        ask = bytes.readDouble();
        size = bytes.readInt();
    }
}
