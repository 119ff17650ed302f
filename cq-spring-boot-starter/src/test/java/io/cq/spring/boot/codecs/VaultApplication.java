package io.cq.spring.boot.codecs;

import io.cq.spring.annotation.QueueListener;
import io.cq.spring.annotation.QueueWriter;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An audit trail kept encrypted at rest: a writer interface as a bean, and a class-level listener reading it. */
@SpringBootApplication
public class VaultApplication {

    @QueueWriter(queue = "audit")
    public interface AuditEvents {
        void onEntry(String account, String text);
    }

    @Bean
    AuditLog auditLog() {
        return new AuditLog();
    }

    /** Receives the calls of {@link AuditEvents}, decrypted and decompressed. */
    @QueueListener(queue = "audit", id = "audit-log")
    public static class AuditLog implements AuditEvents {
        public final List<String> entries = new CopyOnWriteArrayList<>();

        @Override
        public void onEntry(String account, String text) {
            entries.add(account + ": " + text);
        }
    }
}
