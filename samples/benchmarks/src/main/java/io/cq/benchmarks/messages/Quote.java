package io.cq.benchmarks.messages;

/** A five-field quote as a record: what cq's method writer writes as a record document. */
public record Quote(String symbol, double bid, double ask, long bidSize, long askSize) {
}
