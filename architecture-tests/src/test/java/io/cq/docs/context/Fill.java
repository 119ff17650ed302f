package io.cq.docs.context;

public record Fill(String orderId, long quantity) {
}
