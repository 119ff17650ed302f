package io.cq.spring.boot.virtual;

import io.cq.core.MappedQueue;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Boot application with virtual threads on: 50,000 virtual threads each append once through the QueueTemplate
 * or a {@code @QueueWriter} bean, and the application holds no more afterwards than before (appenders are lent
 * from a small pool per queue, not made per thread: an appender per thread fails the count at any number).
 * {@code -Psoak} (docs/testing.md) starts 200,000, as {@code -Dcq.soak.virtualThreads=N} does.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VirtualThreadWritersTest {
    private static final long MIB = 1L << 20;
    private static final int VIRTUAL_THREADS = Integer.getInteger("cq.soak.virtualThreads", 50_000);

    private ConfigurableApplicationContext context;
    private MappedQueue audit;
    private int fdsBefore;
    private long heapBefore;
    private final AtomicInteger failed = new AtomicInteger();

    /** One application, and one run of the virtual threads in it, for every test. */
    @BeforeAll
    void appendOnceFromEachOfTensOfThousandsOfVirtualThreads(@TempDir Path dir) throws Exception {
        context = new SpringApplicationBuilder(AuditApplication.class)
                .web(WebApplicationType.NONE)
                .run("--cq.base-path=" + dir, "--cq.queues.audit.roll-cycle=daily",
                        "--spring.threads.virtual.enabled=true");
        QueueTemplate template = context.getBean(QueueTemplate.class);
        AuditApplication.AuditEvents events = context.getBean(AuditApplication.AuditEvents.class);
        audit = context.getBean("audit", MappedQueue.class);
        template.appendText("audit", "warm-up");
        events.onEntry(new AuditApplication.Entry("warm-up", 0));
        fdsBefore = openFileDescriptors();
        heapBefore = heapAfterGc();

        // At most a few thousand at once: 200,000 writers waiting together would queue for the lock longer than
        // its timeout on a busy machine, which is not what this test is about.
        Semaphore inFlight = new Semaphore(2_000);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < VIRTUAL_THREADS; i++) {
                int n = i;
                inFlight.acquireUninterruptibly();
                executor.submit(() -> {
                    try {
                        if (n % 2 == 0) {
                            template.appendText("audit", "entry " + n);
                        } else {
                            events.onEntry(new AuditApplication.Entry("user-" + n, n));
                        }
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
    }

    @AfterAll
    void close() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void shouldAcceptTheAppendOfEveryVirtualThread() {
        assertThat(failed).hasValue(0);
    }

    @Test
    void shouldHoldOneExcerptPerAppendOfEveryVirtualThread() {
        assertThat(audit.lastIndex() - audit.firstIndex() + 1).isEqualTo(VIRTUAL_THREADS + 2);
    }

    @Test
    void shouldLendAppendersFromAPoolInsteadOfOneAThread() {
        assertThat(audit.resources().openAppenders()).as("appenders: the pools' few, none per thread")
                .isLessThanOrEqualTo(2 * 64);
    }

    @Test
    void shouldKeepTheHeapFlat() {
        assertThat(heapAfterGc()).isLessThanOrEqualTo(heapBefore + 16 * MIB);
    }

    @Test
    void shouldKeepTheFileDescriptorsFlat() throws IOException {
        assertThat(openFileDescriptors()).isLessThanOrEqualTo(fdsBefore + 32);
    }

    private static int openFileDescriptors() throws IOException {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return (int) fds.count();
        }
    }

    private static long heapAfterGc() {
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            least = Math.min(least, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return least;
    }
}
