package io.cq.samples.orders;

/** An order as the REST API takes it and the queue carries it (a CBOR document in the excerpt). */
public record Order(String id, String symbol, Side side, long quantity, double price) {
    public enum Side { BUY, SELL }
}
