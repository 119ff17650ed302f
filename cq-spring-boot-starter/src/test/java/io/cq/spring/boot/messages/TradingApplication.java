package io.cq.spring.boot.messages;

import io.cq.spring.annotation.Header;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.annotation.QueueWriter;
import io.cq.spring.support.ExcerptHeaders;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Typed events end to end: a writer interface as a bean, a class-level listener, and a payload-object listener. */
@SpringBootApplication
public class TradingApplication {
    public record Trade(String symbol, long quantity, double price) {
    }

    public record Fill(String orderId, long quantity) {
    }

    @QueueWriter(queue = "trades")
    public interface TradeEvents {
        void onTrade(Trade trade);

        void onCancel(String tradeId, long quantity);
    }

    @Bean
    Book book() {
        return new Book();
    }

    @Bean
    Ledger ledger() {
        return new Ledger();
    }

    /** Receives the calls of {@link TradeEvents}, as a method reader would. */
    @QueueListener(queue = "trades", id = "book")
    public static class Book implements TradeEvents {
        public final List<String> calls = new CopyOnWriteArrayList<>();

        @Override
        public void onTrade(Trade trade) {
            calls.add("trade " + trade.symbol() + " " + trade.quantity() + "@" + trade.price());
        }

        @Override
        public void onCancel(String tradeId, long quantity) {
            calls.add("cancel " + tradeId + " " + quantity);
        }
    }

    /** Receives objects appended with QueueTemplate.append. */
    public static class Ledger {
        public final List<String> fills = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "fills", id = "ledger")
        void onFill(Fill fill, @Header(ExcerptHeaders.INDEX) long index) {
            fills.add(fill.orderId() + " x" + fill.quantity());
        }
    }
}
