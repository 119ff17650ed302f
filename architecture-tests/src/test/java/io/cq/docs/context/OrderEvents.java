package io.cq.docs.context;

public interface OrderEvents {
    void onOrder(Order order);

    void onCancel(String orderId, long atNanos);
}
