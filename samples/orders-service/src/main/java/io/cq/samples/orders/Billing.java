package io.cq.samples.orders;

import io.cq.spring.annotation.QueueListener;
import org.springframework.stereotype.Component;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Consumes the order events in order, on its own thread, as the named tailer "billing": after a restart it resumes
 * right after the last event it finished.
 */
@Component
@QueueListener(queue = "orders", id = "billing")
public class Billing implements OrderEvents {
    private final Map<String, Order> open = new ConcurrentHashMap<>();
    private final Map<String, Double> notionalBySymbol = new ConcurrentHashMap<>();
    private final AtomicLong orders = new AtomicLong();
    private final AtomicLong cancels = new AtomicLong();

    @Override
    public void onOrder(Order order) {
        open.put(order.id(), order);
        notionalBySymbol.merge(order.symbol(), order.quantity() * order.price(), Double::sum);
        orders.incrementAndGet();
    }

    @Override
    public void onCancel(String orderId) {
        Order cancelled = open.remove(orderId);
        if (cancelled != null) {
            notionalBySymbol.merge(cancelled.symbol(), -cancelled.quantity() * cancelled.price(), Double::sum);
        }
        cancels.incrementAndGet();
    }

    /** What billing has seen since this process started. */
    public Map<String, Object> summary() {
        return Map.of("orders", orders.get(), "cancels", cancels.get(), "openOrders", open.size(),
                "notionalBySymbol", new TreeMap<>(notionalBySymbol));
    }
}
