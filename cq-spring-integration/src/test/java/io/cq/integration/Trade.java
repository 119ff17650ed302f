package io.cq.integration;

/** A payload type that travels as a document. */
public record Trade(String symbol, long quantity, double price) {
}
