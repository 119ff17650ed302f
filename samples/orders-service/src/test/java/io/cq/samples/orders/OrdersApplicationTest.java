package io.cq.samples.orders;

import io.cq.core.MappedQueue;
import io.cq.test.QueueExcerpt;
import io.cq.test.QueueProbe;
import io.cq.test.spring.EmbeddedQueues;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample as a user drives it: HTTP in, the events on the queue, the listener's figures and the actuator out.
 * {@code @EmbeddedQueues} gives the context a fresh queue directory, deleted when the context closes.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@EmbeddedQueues
class OrdersApplicationTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("orders")
    MappedQueue orders;

    @Test
    void shouldBillOrdersPostedOverHttpAndShowTheQueueInTheActuator() throws Exception {
        assertThat(send("POST", "/orders",
                "{\"id\":\"o-1\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"quantity\":100,\"price\":2.5}"))
                .isEqualTo(202);
        assertThat(send("POST", "/orders",
                "{\"id\":\"o-2\",\"symbol\":\"AAPL\",\"side\":\"BUY\",\"quantity\":10,\"price\":3}"))
                .isEqualTo(202);
        assertThat(send("DELETE", "/orders/o-1", null)).isEqualTo(202);

        List<QueueExcerpt> events = QueueProbe.of(orders).awaitExcerpts(3);
        assertThat(events).extracting(QueueExcerpt::methodName).containsExactly("onOrder", "onOrder", "onCancel");
        assertThat(events.getFirst().as(Order.class)).isEqualTo(new Order("o-1", "AAPL", Order.Side.BUY, 100, 2.5));
        assertThat(events.get(2).as(String.class)).isEqualTo("o-1");

        await().atMost(Duration.ofSeconds(10)).until(() -> get("/billing").get("cancels").asLong() == 1);
        JsonNode billing = get("/billing");
        assertThat(billing.get("orders").asLong()).isEqualTo(2);
        assertThat(billing.get("openOrders").asInt()).isEqualTo(1);
        assertThat(billing.at("/notionalBySymbol/AAPL").asDouble()).isEqualTo(30.0);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> get("/actuator/queues/orders").at("/listeners/0/lag").asLong() == 0);
        JsonNode queue = get("/actuator/queues/orders");
        assertThat(queue.at("/listeners/0/id").asString()).isEqualTo("billing");
        assertThat(queue.at("/listeners/0/processed").asLong()).isEqualTo(3);
        assertThat(queue.get("path").asString()).as("hidden unless management.endpoint.queues.show-values allows")
                .isEqualTo("******");
        assertThat(get("/actuator/health").get("status").asString()).isEqualTo("UP");
    }

    @Test
    void shouldServeTheCqConsoleReadOnly() throws Exception {
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/actuator/queues-console/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>cq console</title>");
        JsonNode overview = get("/actuator/queues-console/api/overview");
        assertThat(overview.get("writable").asBoolean()).as("as the queues endpoint: read-only").isFalse();
        assertThat(overview.at("/queues/0/name").asString()).isEqualTo("orders");
        assertThat(overview.at("/queues/1/deadLetters").asBoolean()).as("orders-dlq").isTrue();
    }

    private int send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
