package io.cq.core.message.v1;

/** Version 1 of an order stream, as an older service writes it. */
public interface OrderEvents {
    void onOrder(Order order);

    record Order(String id, String symbol, int quantity, String trader) {
    }
}
