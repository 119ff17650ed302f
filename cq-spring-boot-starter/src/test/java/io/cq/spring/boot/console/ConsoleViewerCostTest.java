package io.cq.spring.boot.console;

import io.cq.spring.annotation.QueueListener;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a viewer costs the application's own work (issue 42: "enabling the console changes no append or listener
 * figure"): the same appends and the same listener run with no viewer and with one that polls the console eight
 * times as often as the page does by default (the figures and the last page of excerpts every 250 ms), in turns.
 * Prints the figures; fails only if a viewer halves them, which would be a cost no noise explains.
 */
@SpringBootTest(classes = ConsoleViewerCostTest.Counting.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"cq.console.enabled=true", "management.endpoints.web.exposure.include=queues",
                "cq.queues.ticks.roll-cycle=daily"})
class ConsoleViewerCostTest {
    private static final int EXCERPTS = 100_000;
    private static final int ROUNDS = 3;
    private static final Path DIR = Path.of("target", "console-viewer-test-" + UUID.randomUUID()).toAbsolutePath();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Counting {
        @Bean
        Counter counter() {
            return new Counter();
        }
    }

    /** A listener that only counts. */
    static class Counter {
        final AtomicLong seen = new AtomicLong();

        @QueueListener(queue = "ticks", id = "counter")
        void onTick(String tick) {
            seen.incrementAndGet();
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

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @Test
    void shouldAppendAndListenAsFastWithAViewerOpen() throws Exception {
        round(false);
        List<double[]> without = new ArrayList<>();
        List<double[]> with = new ArrayList<>();
        for (int i = 0; i < ROUNDS; i++) {
            without.add(round(false));
            with.add(round(true));
        }
        double appendsWithout = median(without, 0);
        double appendsWith = median(with, 0);
        double listenedWithout = median(without, 1);
        double listenedWith = median(with, 1);
        System.out.printf(Locale.ROOT, "ConsoleViewerCostTest: %,d appends/s and %,d excerpts/s listened without a "
                + "viewer; %,d and %,d with one polling every 250 ms (medians of %d rounds of %,d excerpts)%n",
                (long) appendsWithout, (long) listenedWithout, (long) appendsWith, (long) listenedWith, ROUNDS,
                EXCERPTS);
        assertThat(appendsWith).isGreaterThan(appendsWithout / 2);
        assertThat(listenedWith).isGreaterThan(listenedWithout / 2);
    }

    /** Appends with the listener paused, then lets it read them all: {appends per second, listened per second}. */
    private double[] round(boolean viewer) throws Exception {
        // A viewer's page polls at a fixed rate: two requests every 250 ms, as the console's own refresh does.
        ScheduledExecutorService view = Executors.newSingleThreadScheduledExecutor();
        HttpClient http = HttpClient.newHttpClient();
        if (viewer) {
            view.scheduleAtFixedRate(() -> poll(http), 0, 250, TimeUnit.MILLISECONDS);
        }
        try {
            listeners.pause("counter");
            long start = counter.seen.get();
            long appending = System.nanoTime();
            for (int i = 0; i < EXCERPTS; i++) {
                template.appendText("ticks", "tick");
            }
            double appendSeconds = (System.nanoTime() - appending) / 1e9;
            long listening = System.nanoTime();
            listeners.resume("counter");
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(1))
                    .until(() -> counter.seen.get() == start + EXCERPTS);
            double listenSeconds = (System.nanoTime() - listening) / 1e9;
            return new double[] {EXCERPTS / appendSeconds, EXCERPTS / listenSeconds};
        } finally {
            view.shutdown();
            assertThat(view.awaitTermination(30, TimeUnit.SECONDS)).as("viewer stopped").isTrue();
        }
    }

    private void poll(HttpClient http) {
        String base = "http://localhost:" + port + "/actuator/queues-console/api/";
        try {
            http.send(HttpRequest.newBuilder(URI.create(base + "overview")).build(),
                    HttpResponse.BodyHandlers.discarding());
            http.send(HttpRequest.newBuilder(URI.create(base + "queues/ticks/excerpts?from=end")).build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double median(List<double[]> rounds, int figure) {
        List<Double> values = new ArrayList<>(rounds.stream().map(round -> round[figure]).toList());
        Collections.sort(values);
        return values.get(values.size() / 2);
    }
}
