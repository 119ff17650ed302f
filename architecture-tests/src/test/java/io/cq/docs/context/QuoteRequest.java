package io.cq.docs.context;

public record QuoteRequest(String symbol, long quantity) {
}
