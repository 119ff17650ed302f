package io.cq.spring.boot.app;

import io.cq.core.MappedQueue;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The endpoint, health and metrics over HTTP, with real figures from a queue on disk. */
@SpringBootTest(classes = ListenerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"management.endpoints.web.exposure.include=health,queues,metrics",
                "management.endpoint.health.show-details=always", "management.endpoint.queues.access=unrestricted",
                "cq.queues.orders.block-size=1MB"})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ActuatorOverHttpTest {
    /**
     * Under target/, not a JUnit temporary directory: the cached application context (and its queues) outlives the
     * test class, so nothing may delete the directory before the JVM ends.
     */
    private static final Path DIR = Path.of("target", "actuator-test-" + UUID.randomUUID()).toAbsolutePath();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    QueueTemplate template;

    @Autowired
    @Qualifier("orders")
    MappedQueue orders;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    private long first;
    private long last;

    /** Three orders, all processed by the listener, for every test. */
    @BeforeAll
    void appendThreeOrders() {
        first = template.appendText("orders", "order-1");
        template.appendText("orders", "order-2");
        last = template.appendText("orders", "order-3");
        await().atMost(Duration.ofSeconds(10)).until(() -> processed() == 3);
    }

    @Test
    void shouldHideTheQueuesDirectoryByDefault() throws Exception {
        // show-values is never by default, as for Boot's env endpoint: the directory is not shown over HTTP
        assertThat(get("/actuator/queues/orders").get("path").asString()).isEqualTo("******");
    }

    @Test
    void shouldReportTheQueuesFirstAndLastIndex() throws Exception {
        JsonNode queue = get("/actuator/queues/orders");
        assertThat(queue.get("firstIndex").asLong()).isEqualTo(first);
        assertThat(queue.get("lastIndex").asLong()).isEqualTo(last);
        assertThat(queue.get("lastIndexHex").asString()).isEqualTo("0x" + Long.toHexString(last));
    }

    @Test
    void shouldReportTheQueuesCycleAndFiles() throws Exception {
        JsonNode queue = get("/actuator/queues/orders");
        assertThat(queue.get("rollCycle").asString()).isEqualTo("DAILY");
        assertThat(queue.get("currentCycle").asLong()).isEqualTo(orders.currentCycle());
        assertThat(queue.get("files").asInt()).isEqualTo(1);
        assertThat(queue.get("apparentBytes").asLong()).isGreaterThanOrEqualTo(1024 * 1024);
    }

    @Test
    void shouldReportTheListenerOfTheQueue() throws Exception {
        JsonNode listener = get("/actuator/queues/orders").at("/listeners/0");
        assertThat(listener.get("id").asString()).isEqualTo("billing");
        assertThat(listener.get("state").asString()).isEqualTo("RUNNING");
        assertThat(listener.get("nextIndex").asLong()).isEqualTo(last + 1);
    }

    @Test
    void shouldReportTheNamedTailersOfTheQueueWithTheirLag() throws Exception {
        JsonNode tailer = get("/actuator/queues/orders").at("/namedTailers/0");
        assertThat(tailer.get("name").asString()).isEqualTo("billing");
        assertThat(tailer.get("lag").asLong()).isZero();
    }

    @Test
    void shouldReportEveryQueueAtTheEndpointsRoot() throws Exception {
        assertThat(get("/actuator/queues").at("/orders/lastIndex").asLong()).isEqualTo(last);
    }

    @Test
    void shouldReportTheQueuesAndTheirListenersInHealth() throws Exception {
        JsonNode health = get("/actuator/health/queues");
        assertThat(health.get("status").asString()).isEqualTo("UP");
        assertThat(health.at("/details/orders/listeners/billing").asString()).isEqualTo("RUNNING");
        assertThat(health.at("/details/orders/diskFreeBytes").asLong()).isPositive();
    }

    @Test
    void shouldPublishWhatTheListenerProcessedAsMetrics() throws Exception {
        assertThat(get("/actuator/metrics/cq.listener.processed?tag=listener:billing").at("/measurements/0/value")
                .asDouble()).isEqualTo(3.0);
        assertThat(get("/actuator/metrics/cq.listener.processing?tag=listener:billing").at("/measurements/0/value")
                .asDouble()).isEqualTo(3.0);
    }

    @Test
    void shouldPublishWhatWasAppendedToTheQueueAsMetrics() throws Exception {
        assertThat(get("/actuator/metrics/cq.queue.appended?tag=queue:orders").at("/measurements/0/value").asDouble())
                .isEqualTo(3.0);
        assertThat(get("/actuator/metrics/cq.queue.last.index?tag=queue:orders").at("/measurements/0/value").asDouble())
                .isEqualTo((double) last);
    }

    @Test
    void shouldAnswerNotFoundForAnUnknownListener() throws Exception {
        assertThat(status("/actuator/queues/orders/no-such-listener", "{\"action\":\"pause\"}"))
                .as("an unknown listener").isEqualTo(404);
    }

    @Test
    void shouldAnswerNotFoundForAnUnknownQueue() throws Exception {
        assertThat(status("/actuator/queues/no-such-queue/billing", "{\"action\":\"pause\"}"))
                .as("an unknown queue").isEqualTo(404);
    }

    /** After the tests above: it appends, which changes the figures they expect. */
    @Test
    @Order(Order.DEFAULT + 1)
    void shouldPauseAListenerOnRequestAndShowItsLag() throws Exception {
        long processed = processed();
        JsonNode paused = post("/actuator/queues/orders/billing", "{\"action\":\"pause\"}");
        assertThat(paused.get("state").asString()).isEqualTo("PAUSED");
        template.appendText("orders", "order-lagging");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> get("/actuator/queues/orders").at("/listeners/0/lag").asLong() == 1);
        assertThat(get("/actuator/metrics/cq.listener.lag?tag=listener:billing").at("/measurements/0/value").asDouble())
                .isEqualTo(1.0);

        post("/actuator/queues/orders/billing", "{\"action\":\"resume\"}");
        await().atMost(Duration.ofSeconds(10)).until(() -> processed() == processed + 1);
    }

    /** After the tests above: it appends, which changes the figures they expect. */
    @Test
    @Order(Order.DEFAULT + 1)
    void shouldResumeAPausedListenerOnRequest() throws Exception {
        long processed = processed();
        post("/actuator/queues/orders/billing", "{\"action\":\"pause\"}");
        template.appendText("orders", "order-waiting");

        JsonNode resumed = post("/actuator/queues/orders/billing", "{\"action\":\"resume\"}");
        assertThat(resumed.get("state").asString()).isEqualTo("RUNNING");
        await().atMost(Duration.ofSeconds(10)).until(() -> processed() == processed + 1);
    }

    private long processed() throws IOException, InterruptedException {
        return get("/actuator/queues/orders").at("/listeners/0/processed").asLong();
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private int status(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private JsonNode post(String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri(path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("POST %s: %s", path, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + path);
    }
}
