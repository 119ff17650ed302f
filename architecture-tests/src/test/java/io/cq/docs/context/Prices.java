package io.cq.docs.context;

public interface Prices {
    Quote quote(String symbol, long quantity);
}
