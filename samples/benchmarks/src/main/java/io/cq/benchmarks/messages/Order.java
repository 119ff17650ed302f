package io.cq.benchmarks.messages;

/** A self-describing document for cq: a record, encoded as CBOR by Jackson. */
public record Order(String id, String symbol, long quantity, double price, Side side) {
    public enum Side { BUY, SELL }
}
