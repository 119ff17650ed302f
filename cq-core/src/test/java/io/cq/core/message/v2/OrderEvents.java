package io.cq.core.message.v2;

import java.math.BigDecimal;
import java.util.List;

/** Version 2: {@code trader} removed, {@code limit} and {@code tags} added, {@code quantity} widened to long. */
public interface OrderEvents {
    void onOrder(Order order);

    record Order(String id, String symbol, long quantity, BigDecimal limit, List<String> tags) {
    }
}
