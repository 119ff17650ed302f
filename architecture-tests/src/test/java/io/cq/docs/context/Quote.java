package io.cq.docs.context;

public record Quote(String symbol, long quantity, double price) {
}
