package io.cq.spring.boot.console;

import io.cq.spring.console.ConsolePath;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console under the queues endpoint's default access, read-only: it shows everything and changes nothing, and
 * has no route for a write, as Boot maps no write operation of a read-only endpoint. It is served at the path
 * chosen for it, and with {@code show-values=always} shows the queues' directories as the endpoint does.
 */
@SpringBootTest(classes = ConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"cq.console.enabled=true", "cq.console.path=/ops/cq",
                "management.endpoints.web.exposure.include=queues", "management.endpoint.queues.show-values=always",
                "cq.queues.orders.roll-cycle=daily", "cq.queues.trades.roll-cycle=daily"})
class ConsoleReadOnlyTest {
    private static final Path DIR = Path.of("target", "console-read-only-test-" + UUID.randomUUID())
            .toAbsolutePath();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    PathMappedEndpoints actuatorPaths;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)));
    }

    private JsonNode overview() throws Exception {
        return JSON.readTree(get("/ops/cq/api/overview").body());
    }

    @Test
    void shouldSayItIsNotWritableAndGiveNoToken() throws Exception {
        JsonNode overview = overview();
        assertThat(overview.get("writable").asBoolean()).isFalse();
        assertThat(overview.get("token").isNull()).as("no token: there is nothing to write").isTrue();
    }

    @Test
    void shouldShowTheQueuesDirectoriesWhenTheEndpointShowsValues() throws Exception {
        assertThat(overview().at("/queues/0/queue/path").asString()).isEqualTo(DIR.resolve("orders").toString());
    }

    @Test
    void shouldHaveNoRouteForAWriteAndChangeNothing() throws Exception {
        HttpResponse<String> pause = send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                        + "/ops/cq/api/queues/orders/listeners/billing")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"action\":\"pause\"}")));
        assertThat(pause.statusCode()).as("no such route, as for any path that does not exist").isEqualTo(404);
        assertThat(overview().at("/queues/0/queue/listeners/0/state").asString()).isEqualTo("RUNNING");
    }

    @Test
    void shouldBeServedOnlyAtThePathChosenForIt() throws Exception {
        assertThat(get("/actuator/queues-console/").statusCode()).as("only at the path chosen").isEqualTo(404);
    }

    @Test
    void shouldStandOutsideTheActuatorsPathsWhenServedOutsideItsBasePath() {
        assertThat(actuatorPaths.getPath(ConsolePath.ID)).as("outside the Actuator's base path: rules name it")
                .isNull();
    }
}
