package io.cq.benchmarks.messages;

/** The document interface of Chronicle. */
public interface OrderDtoEvents {
    void order(OrderDto order);
}
