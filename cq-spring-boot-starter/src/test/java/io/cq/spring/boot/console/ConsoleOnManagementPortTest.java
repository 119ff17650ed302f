package io.cq.spring.boot.console;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code management.server.port}, the console is where the Actuator is: on the management port, not on the
 * application's.
 */
@SpringBootTest(classes = ConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"cq.console.enabled=true", "management.server.port=0",
                "management.endpoints.web.exposure.include=queues",
                "cq.queues.orders.roll-cycle=daily", "cq.queues.trades.roll-cycle=daily"})
class ConsoleOnManagementPortTest {
    private static final Path DIR = Path.of("target", "console-management-port-test-" + UUID.randomUUID())
            .toAbsolutePath();

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @Test
    void shouldServeTheConsoleOnTheManagementPortOnly() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> there = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/actuator/queues-console/api/overview")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(there.statusCode()).isEqualTo(200);
        assertThat(there.body()).contains("\"name\":\"orders\"");
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort
                + "/actuator/queues-console/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        HttpResponse<String> notHere = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/actuator/queues-console/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(notHere.statusCode()).isEqualTo(404);
    }
}
