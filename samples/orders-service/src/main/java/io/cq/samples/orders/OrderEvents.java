package io.cq.samples.orders;

import io.cq.spring.annotation.QueueWriter;

/**
 * What happens to orders. The starter makes a bean of this interface whose calls append to the {@code orders}
 * queue; {@link Billing} implements it to receive them.
 */
@QueueWriter(queue = "orders")
public interface OrderEvents {
    void onOrder(Order order);

    void onCancel(String orderId);
}
