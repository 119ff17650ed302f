package io.cq.spring.boot.app;

import io.cq.spring.annotation.Header;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.support.ExcerptHeaders;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An application as a user writes one: queues from properties, one listener that records what it got. */
@SpringBootApplication
public class ListenerApplication {

    @Bean
    Billing billing() {
        return new Billing();
    }

    /** Bills orders; refuses any order whose text starts with "poison". */
    public static class Billing {
        public final List<String> billed = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "orders", id = "billing")
        void onOrder(String order, @Header(ExcerptHeaders.INDEX) long index) {
            if (order.startsWith("poison")) {
                throw new IllegalArgumentException("cannot bill " + order);
            }
            billed.add(order);
        }
    }
}
