package io.cq.benchmarks.messages;

import net.openhft.chronicle.wire.SelfDescribingMarshallable;

/** The same document for Chronicle: its self-describing type (field names on the wire, like CBOR). */
public final class OrderDto extends SelfDescribingMarshallable {
    public String id;
    public String symbol;
    public long quantity;
    public double price;
    public Order.Side side;
}
