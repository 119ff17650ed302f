package io.cq.docs.context;

public interface RiskService {
    /** @return what the flow passes on (null ends it) */
    Object onTrade(Trade trade);
}
