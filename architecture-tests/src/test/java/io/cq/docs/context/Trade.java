package io.cq.docs.context;

public record Trade(String symbol, long quantity, double price) {
}
