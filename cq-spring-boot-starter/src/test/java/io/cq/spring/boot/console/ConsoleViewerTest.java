package io.cq.spring.boot.console;

import io.cq.core.MappedQueue;
import io.cq.spring.annotation.QueueListener;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A viewer beside a working listener (issue 42: "enabling the console changes no append or listener figure"), as
 * behaviour: a viewer polling the figures and the last page far more often than the page does, while excerpts are
 * appended and listened to, moves no listener, makes it miss or repeat nothing, and leaves no tailer open. What a
 * viewer costs the appends and the listener in time is measured by the benchmark suite's console section
 * (docs/console.md), not here.
 */
@SpringBootTest(classes = ConsoleViewerTest.Counting.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"cq.console.enabled=true", "management.endpoints.web.exposure.include=queues",
                "cq.queues.ticks.roll-cycle=daily"})
class ConsoleViewerTest {
    private static final int EXCERPTS = 20_000;
    private static final Path DIR = Path.of("target", "console-viewer-test-" + UUID.randomUUID()).toAbsolutePath();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Counting {
        @Bean
        Counter counter() {
            return new Counter();
        }
    }

    /** A listener that keeps what it was given. */
    static class Counter {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "ticks", id = "counter")
        void onTick(String tick) {
            seen.add(tick);
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    QueueTemplate template;

    @Autowired
    Counter counter;

    @Autowired
    ListenerContainerRegistry listeners;

    @Autowired
    @Qualifier("ticks")
    MappedQueue ticks;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @Test
    void shouldLetTheListenerReceiveEveryExcerptOnceWhileAViewerPolls() throws Exception {
        int tailers = ticks.resources().openTailers();
        List<Integer> answers = new CopyOnWriteArrayList<>();
        ScheduledExecutorService viewer = Executors.newSingleThreadScheduledExecutor();
        HttpClient http = HttpClient.newHttpClient();
        viewer.scheduleAtFixedRate(() -> poll(http, answers), 0, 20, TimeUnit.MILLISECONDS);
        try {
            listeners.pause("counter");
            for (int i = 0; i < EXCERPTS / 2; i++) {
                template.appendText("ticks", "tick " + i);
            }
            listeners.resume("counter");
            for (int i = EXCERPTS / 2; i < EXCERPTS; i++) {
                template.appendText("ticks", "tick " + i);
            }
            await().atMost(Duration.ofMinutes(1)).until(() -> counter.seen.size() >= EXCERPTS);
            await().atMost(Duration.ofSeconds(10)).until(() -> answers.size() >= 10);
        } finally {
            viewer.shutdown();
            assertThat(viewer.awaitTermination(30, TimeUnit.SECONDS)).as("viewer stopped").isTrue();
        }

        assertThat(answers).as("the viewer's answers").containsOnly(200);
        assertThat(counter.seen).hasSize(EXCERPTS).first().isEqualTo("tick 0");
        assertThat(counter.seen).last().isEqualTo("tick " + (EXCERPTS - 1));
        assertThat(counter.seen).doesNotHaveDuplicates();
        assertThat(ticks.resources().openTailers()).as("the listener's tailer, no viewer's").isEqualTo(tailers);
    }

    private void poll(HttpClient http, List<Integer> answers) {
        String base = "http://localhost:" + port + "/actuator/queues-console/api/";
        try {
            for (String path : List.of("overview", "queues/ticks/excerpts?from=end")) {
                answers.add(http.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            answers.add(-1);
        }
    }
}
