package io.cq.samples.orders;

import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

/** The HTTP side: each request appends one event to the queue and returns; billing catches up on its own thread. */
@RestController
class OrderController {
    private final OrderEvents events;
    private final Billing billing;

    OrderController(OrderEvents events, Billing billing) {
        this.events = events;
        this.billing = billing;
    }

    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.ACCEPTED)
    void place(@RequestBody Order order) {
        events.onOrder(order);
    }

    @DeleteMapping("/orders/{id}")
    @ResponseStatus(HttpStatus.ACCEPTED)
    void cancel(@PathVariable String id) {
        events.onCancel(id);
    }

    @GetMapping("/billing")
    Map<String, Object> billing() {
        return billing.summary();
    }
}
