package io.cq.benchmarks.messages;

import net.openhft.chronicle.wire.SelfDescribingMarshallable;

/** The same quote for Chronicle: its self-describing type, field names on the wire as cq's record documents. */
public final class QuoteDto extends SelfDescribingMarshallable {
    public String symbol;
    public double bid;
    public double ask;
    public long bidSize;
    public long askSize;
}
