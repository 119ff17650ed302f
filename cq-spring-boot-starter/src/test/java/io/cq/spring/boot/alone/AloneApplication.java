package io.cq.spring.boot.alone;

import io.cq.core.MappedQueue;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/** A child-JVM application whose class path is the starter's runtime class path and nothing else. */
@SpringBootApplication
public class AloneApplication {
    public static void main(String[] args) {
        try (ConfigurableApplicationContext context = SpringApplication.run(AloneApplication.class, args)) {
            MappedQueue orders = context.getBean("orders", MappedQueue.class);
            System.out.println("queue orders: " + orders.rollCycle() + " at " + orders.path());
        }
    }
}
