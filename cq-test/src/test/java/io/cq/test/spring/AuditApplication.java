package io.cq.test.spring;

import io.cq.spring.annotation.QueueListener;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A small application on the starter: one queue, {@code audit}, which a listener reads as the tailer "auditor". */
@SpringBootApplication
public class AuditApplication {

    @Component
    static class Auditor {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "audit", id = "auditor")
        void onAudit(String text) {
            seen.add(text);
        }
    }
}
