package io.cq.samples.secured;

import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.UUID;

import static io.cq.samples.secured.Session.CONSOLE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample's application with the {@code queues} endpoint read-only (its default) and its values never shown: a
 * signed-in operator, with every token a write needs, still cannot pause a listener, and sees no path, pid or host.
 */
@SpringBootTest(classes = SecuredConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"management.endpoint.queues.access=read-only", "management.endpoint.queues.show-values=never"})
class SecuredReadOnlyConsoleTest {
    private static final Path DIR = Path.of("target", "secured-read-only-" + UUID.randomUUID()).toAbsolutePath();

    @LocalServerPort
    int port;

    @Autowired
    ListenerContainerRegistry listeners;

    @Autowired
    QueueTemplate template;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @Test
    void shouldRefuseEveryWriteEvenToASignedInOperatorWithTheTokens() throws Exception {
        Session ops = Session.signedIn(port, "ops", "ops-secret");
        JsonNode overview = ops.overview();
        assertThat(overview.get("writable").asBoolean()).isFalse();
        assertThat(overview.get("token").isNull()).as("no console token for a read-only console").isTrue();

        for (String action : new String[] {"pause", "stop", "seek-to-end"}) {
            HttpResponse<String> refused = ops.post(CONSOLE + "/api/queues/orders/listeners/billing",
                    "{\"action\":\"" + action + "\"}", "X-CQ-Console-Token", "any",
                    overview.at("/springSecurity/header").asString(), overview.at("/springSecurity/token").asString());
            assertThat(refused.statusCode()).as(action + ": " + refused.body()).isIn(404, 405);
        }
        HttpResponse<String> endpoint = ops.post("/actuator/queues/orders/billing", "{\"action\":\"pause\"}",
                overview.at("/springSecurity/header").asString(), overview.at("/springSecurity/token").asString());
        assertThat(endpoint.statusCode()).as("as the endpoint: " + endpoint.body()).isIn(404, 405);
        assertThat(listeners.container("billing").isPaused()).isFalse();
        assertThat(listeners.container("billing").isRunning()).isTrue();
    }

    @Test
    void shouldHidePathsPidsAndHostsFromEveryoneWhenValuesAreNeverShown() throws Exception {
        template.appendText("orders", "order-for-a-writer");
        JsonNode orders = SecuredConsoleTest.orders(Session.signedIn(port, "ops", "ops-secret").overview());

        assertThat(orders.at("/queue/path").asString()).isEqualTo("******");
        JsonNode pid = orders.at("/queue/writers/0/pid");
        assertThat(pid.isNull() || pid.isMissingNode()).as("pid " + pid).isTrue();
        assertThat(orders.at("/queue/writers/0/host").asString()).isEqualTo("******");
        assertThat(orders.toString()).doesNotContain(DIR.toString());
    }
}
