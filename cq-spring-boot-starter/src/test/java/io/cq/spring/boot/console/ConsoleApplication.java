package io.cq.spring.boot.console;

import io.cq.core.MappedQueue;
import io.cq.integration.dsl.Cq;
import io.cq.spring.annotation.QueueListener;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The application the console's tests look at, as a user writes one: an orders queue billed by a listener that
 * gives up on "poison" orders (they go to the dead-letter queue, as {@code cq.listener.recoverer=dead-letter} says),
 * and a trades queue read by a Spring Integration adapter.
 */
@SpringBootApplication
@EnableIntegration
public class ConsoleApplication {

    @Bean
    Billing billing() {
        return new Billing();
    }

    @Bean
    IntegrationFlow riskFlow(MappedQueue trades, Billing billing) {
        return IntegrationFlow.from(Cq.inboundAdapter(trades).id("risk").payloadType(String.class))
                .handle(String.class, (trade, headers) -> {
                    billing.trades.add(trade);
                    return null;
                })
                .get();
    }

    /** Bills orders; refuses any order whose text starts with "poison". */
    public static class Billing {
        public final List<String> billed = new CopyOnWriteArrayList<>();
        public final List<String> trades = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "billing")
        void onOrder(String order) {
            if (order.startsWith("poison")) {
                throw new IllegalArgumentException("cannot bill " + order + ": no such customer");
            }
            billed.add(order);
        }
    }
}
