package io.cq.samples.orders;

import io.cq.core.MappedQueue;
import io.cq.spring.console.ConsoleApi;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;

import java.nio.file.Path;

/**
 * A REST service whose orders go through a cq queue: {@code POST /orders} appends an {@link OrderEvents#onOrder}
 * call, {@link Billing} consumes it, {@code /actuator/queues} and {@code /actuator/health} show the queue, the
 * listener's lag and the disk, and the cq console ({@code /actuator/queues-console/}) shows all of it in a browser.
 * Run it with {@code ./mvnw -q -pl samples/orders-service -am compile exec:exec}.
 */
@SpringBootApplication
public class OrdersApplication {
    public static void main(String[] args) {
        SpringApplication.run(OrdersApplication.class, args);
    }

    @EventListener(ApplicationReadyEvent.class)
    void sayHowToUseIt(ApplicationReadyEvent event) {
        Environment environment = event.getApplicationContext().getEnvironment();
        String base = "http://localhost:" + environment.getProperty("local.server.port", "8080");
        // Where the queue really is: cq.base-path or cq.queues.orders.path may have moved it.
        Path orders = event.getApplicationContext().getBean("orders", MappedQueue.class).path();
        // The console is there when cq.console.enabled is true and the queues endpoint is exposed over HTTP.
        ConsoleApi console = event.getApplicationContext().getBeanProvider(ConsoleApi.class).getIfAvailable();
        String consoleLine = console == null ? "" : "  open   %s%s/      (the cq console)%n"
                .formatted(base, console.settings().path());
        System.out.println("""

                Orders service ready.
                %3$s\
                Try:
                  curl -X POST %1$s/orders -H 'Content-Type: application/json' \\
                       -d '{"id":"o-1","symbol":"AAPL","side":"BUY","quantity":100,"price":189.25}'
                  curl %1$s/billing
                  curl %1$s/actuator/queues/orders
                  curl %1$s/actuator/health
                  bin/cq tail -f %2$s      (in another terminal)
                Ctrl-C stops it; the queue and billing's position stay in %2$s.
                """.formatted(base, orders, consoleLine));
    }
}
