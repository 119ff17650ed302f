package io.cq.spring.boot.virtual;

import io.cq.spring.annotation.QueueWriter;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application that only writes: a writer interface on the "audit" queue, and the QueueTemplate. */
@SpringBootApplication
public class AuditApplication {
    public record Entry(String user, long at) {
    }

    @QueueWriter(queue = "audit")
    public interface AuditEvents {
        void onEntry(Entry entry);
    }
}
