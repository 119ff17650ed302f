package io.cq.test.spring;

import io.cq.core.MappedQueue;
import io.cq.spring.core.QueueTemplate;
import io.cq.test.QueueProbe;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code @EmbeddedQueues} as an application's test uses it, with {@code @SpringBootTest}. */
@SpringBootTest(classes = AuditApplication.class, properties = "cq.queues.audit.roll-cycle=daily")
@EmbeddedQueues
class EmbeddedQueuesTest {
    @Value("${cq.base-path}")
    Path basePath;

    @Autowired
    @Qualifier("audit")
    MappedQueue audit;

    @Autowired
    QueueTemplate template;

    @Autowired
    AuditApplication.Auditor auditor;

    @Test
    void shouldOpenTheContextsQueuesUnderAFreshTemporaryDirectory() {
        Path temporary = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();

        assertThat(basePath).isAbsolute().startsWith(temporary).isDirectory();
        assertThat(basePath.getFileName().toString()).startsWith("cq-embedded-");
        assertThat(audit.path()).isEqualTo(basePath.resolve("audit"));
    }

    @Test
    void shouldLetTheProbeReadWhatTheListenerReadsWithoutTakingItsExcerpts() {
        template.appendText("audit", "login alice");
        template.appendText("audit", "logout alice");

        assertThat(QueueProbe.of(audit).awaitText(text -> text.equals("logout alice"))).isEqualTo("logout alice");
        await().atMost(Duration.ofSeconds(10)).until(() -> auditor.seen.contains("logout alice"));
        assertThat(auditor.seen).containsSubsequence("login alice", "logout alice");
    }
}
