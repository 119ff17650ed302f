package io.cq.docs.context;

public interface Book {
    void apply(long instrument, double price);
}
