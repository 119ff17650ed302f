package io.cq.docs.context;

public interface TradeEvents {
    void onTrade(Trade trade);

    void onCancel(String tradeId, long quantity);
}
