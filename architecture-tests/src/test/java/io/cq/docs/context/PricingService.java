package io.cq.docs.context;

public interface PricingService {
    Trade price(Trade trade);
}
