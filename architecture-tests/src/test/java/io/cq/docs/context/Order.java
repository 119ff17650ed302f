package io.cq.docs.context;

public record Order(String id, String symbol, long quantity, double price, Side side) {
}
