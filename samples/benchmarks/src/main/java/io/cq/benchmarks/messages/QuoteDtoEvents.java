package io.cq.benchmarks.messages;

/** The document interface of Chronicle. */
public interface QuoteDtoEvents {
    void quote(QuoteDto quote);
}
