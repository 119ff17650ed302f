package io.cq.benchmarks.messages;

/** The document interface of cq. */
public interface OrderEvents {
    void order(Order order);
}
