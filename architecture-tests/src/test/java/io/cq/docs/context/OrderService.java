package io.cq.docs.context;

public interface OrderService {
    void place(Order order);
}
