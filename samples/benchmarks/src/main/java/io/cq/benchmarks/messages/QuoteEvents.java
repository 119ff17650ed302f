package io.cq.benchmarks.messages;

/** The record interface of cq. */
public interface QuoteEvents {
    void quote(Quote quote);
}
