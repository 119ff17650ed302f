package io.cq.spring.boot.console;

import io.cq.spring.console.ConsoleApi;
import io.cq.spring.console.ConsoleCharts;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.servlet.function.RouterFunction;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without {@code cq.console.enabled=true} there is no console: no bean, no route, no static resource, though the
 * queues endpoint is exposed and writable.
 */
@SpringBootTest(classes = ConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"management.endpoints.web.exposure.include=health,queues",
                "management.endpoint.queues.access=unrestricted",
                "cq.queues.orders.roll-cycle=daily", "cq.queues.trades.roll-cycle=daily"})
class ConsoleAbsentTest {
    private static final Path DIR = Path.of("target", "console-absent-test-" + UUID.randomUUID()).toAbsolutePath();

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @Test
    void shouldServeNothingOfTheConsoleWhenItIsNotEnabled() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : new String[] {"/actuator/queues-console", "/actuator/queues-console/",
                "/actuator/queues-console/console.js", "/actuator/queues-console/api/overview",
                "/actuator/queues-console/api/queues/orders/excerpts", "/io/cq/spring/console/static/index.html",
                "/static/index.html", "/index.html", "/console.js"}) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                    + path)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(404);
        }
        HttpResponse<String> endpoint = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/actuator/queues")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(endpoint.statusCode()).as("the queues endpoint itself is there").isEqualTo(200);
    }

    @Test
    void shouldRegisterNoBeanOfTheConsoleWhenItIsNotEnabled() {
        assertThat(context.getBeansOfType(ConsoleApi.class)).isEmpty();
        assertThat(context.getBeansOfType(ConsoleCharts.class)).isEmpty();
        assertThat(Arrays.stream(context.getBeanDefinitionNames()).filter(name -> name.startsWith("cqConsole")))
                .isEmpty();
        assertThat(context.getBeansOfType(RouterFunction.class)).isEmpty();
    }
}
