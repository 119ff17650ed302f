package io.cq.docs.context;

public enum Side { BUY, SELL }
