package io.cq.samples.marketdata;

/** One top-of-book quote; {@code publishedNanos} is the feed's {@code System.nanoTime()}, for latency. */
public record Quote(String symbol, double bid, double ask, long sequence, long publishedNanos) {
}
