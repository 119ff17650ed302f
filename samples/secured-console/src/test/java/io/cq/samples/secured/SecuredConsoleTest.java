package io.cq.samples.secured;

import io.cq.samples.secured.SecuredConsoleApplication.Billing;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import static io.cq.samples.secured.Session.CONSOLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console behind Spring Security, end to end over HTTP, in the sample's own application (its filter chain: the
 * Actuator for OPS and AUDITOR; writes allowed, values shown to OPS): who may open it, and what a write needs.
 */
@SpringBootTest(classes = SecuredConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SecuredConsoleTest {
    private static final Path DIR = Path.of("target", "secured-console-" + UUID.randomUUID()).toAbsolutePath();
    private static final String BILLING = CONSOLE + "/api/queues/orders/listeners/billing";
    private static final String PAUSE = "{\"action\":\"pause\"}";

    @LocalServerPort
    int port;

    @Autowired
    ListenerContainerRegistry listeners;

    @Autowired
    QueueTemplate template;

    @Autowired
    Billing billing;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @AfterEach
    void running() {
        if (listeners.container("billing").isPaused()) {
            listeners.resume("billing");
        }
    }

    @Test
    void shouldRefuseTheConsoleToWhoeverIsNotSignedIn() throws Exception {
        Session anonymous = Session.anonymous(port);

        HttpResponse<String> page = anonymous.get(CONSOLE + "/", "text/html");
        assertThat(page.statusCode()).as("a browser is sent to sign in").isEqualTo(302);
        assertThat(page.headers().firstValue("Location")).hasValueSatisfying(to -> assertThat(to).endsWith("/login"));
        assertThat(page.body()).doesNotContain("console.js");
        // each path, and what its answer would hold
        Map<String, String> answers = Map.of("/", "console.js", "/console.js", "renderQueues", "/api/overview",
                "\"writable\"", "/api/queues/orders/excerpts", "\"excerpts\":");
        for (Map.Entry<String, String> answer : answers.entrySet()) {
            HttpResponse<String> response = anonymous.get(CONSOLE + answer.getKey(), "application/json");
            assertThat(response.statusCode()).as(answer.getKey()).isEqualTo(401);
            assertThat(response.body()).as(answer.getKey()).doesNotContain(answer.getValue());
        }
        assertThat(anonymous.post(BILLING, PAUSE).statusCode()).isIn(401, 403);
        assertThat(listeners.container("billing").isPaused()).isFalse();
    }

    @Test
    void shouldRefuseTheConsoleToASignedInUserWithoutAnActuatorRole() throws Exception {
        Session guest = Session.signedIn(port, "guest", "guest-secret");

        assertThat(guest.get(CONSOLE + "/", "text/html").statusCode()).isEqualTo(403);
        assertThat(guest.get(CONSOLE + "/api/overview", "application/json").statusCode()).isEqualTo(403);
        assertThat(guest.get("/actuator/queues", "application/json").statusCode()).as("as the endpoint")
                .isEqualTo(403);
    }

    @Test
    void shouldShowThePageAndItsFiguresToASignedInOperator() throws Exception {
        Session ops = Session.signedIn(port, "ops", "ops-secret");

        HttpResponse<String> page = ops.get(CONSOLE + "/", "text/html");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("console.js");
        assertThat(ops.get(CONSOLE + "/console.js", "*/*").statusCode()).isEqualTo(200);
        JsonNode overview = ops.overview();
        assertThat(overview.get("writable").asBoolean()).isTrue();
        assertThat(overview.at("/springSecurity/header").asString()).as("Spring Security's CSRF token, for the page")
                .isEqualTo("X-CSRF-TOKEN");
        assertThat(overview.at("/springSecurity/token").asString()).isNotBlank();
        assertThat(ops.get(CONSOLE + "/api/queues/orders/excerpts?from=end", "application/json").statusCode())
                .isEqualTo(200);
    }

    @Test
    void shouldRefuseAWriteWithoutSpringSecuritysCsrfTokenAndDoItWithTheToken() throws Exception {
        Session ops = Session.signedIn(port, "ops", "ops-secret");
        String consoleToken = ops.overview().get("token").asString();

        HttpResponse<String> withoutCsrf = ops.post(BILLING, PAUSE, "X-CQ-Console-Token", consoleToken);
        assertThat(withoutCsrf.statusCode()).isEqualTo(403);
        HttpResponse<String> wrongCsrf = ops.post(BILLING, PAUSE, "X-CQ-Console-Token", consoleToken,
                "X-CSRF-TOKEN", "guessed");
        assertThat(wrongCsrf.statusCode()).isEqualTo(403);
        assertThat(listeners.container("billing").isPaused()).isFalse();

        JsonNode overview = ops.overview();
        HttpResponse<String> withoutConsoleToken = ops.post(BILLING, PAUSE,
                overview.at("/springSecurity/header").asString(), overview.at("/springSecurity/token").asString());
        assertThat(withoutConsoleToken.statusCode()).as("the console's own token is still needed").isEqualTo(403);
        assertThat(withoutConsoleToken.body()).contains("X-CQ-Console-Token");
        assertThat(listeners.container("billing").isPaused()).isFalse();

        HttpResponse<String> paused = ops.act("billing", PAUSE);
        assertThat(paused.statusCode()).as(paused.body()).isEqualTo(200);
        assertThat(listeners.container("billing").isPaused()).isTrue();
        long index = template.appendText("orders", "order-while-paused");
        HttpResponse<String> moved = ops.act("billing", "{\"action\":\"seek-to-index\",\"index\":\"" + index + "\"}");
        assertThat(moved.statusCode()).as(moved.body()).isEqualTo(200);
        HttpResponse<String> resumed = ops.act("billing", "{\"action\":\"resume\"}");
        assertThat(resumed.statusCode()).as(resumed.body()).isEqualTo(200);
        assertThat(listeners.container("billing").isPaused()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> billing.billed.contains("order-while-paused"));
    }

    @Test
    void shouldShowPathsPidsAndHostsOnlyToTheRolesThatShowValuesNames() throws Exception {
        template.appendText("orders", "order-for-a-writer");
        JsonNode forOps = Session.signedIn(port, "ops", "ops-secret").overview();
        JsonNode forAuditor = Session.signedIn(port, "auditor", "auditor-secret").overview();

        assertThat(orders(forOps).at("/queue/path").asString()).isEqualTo(DIR.resolve("orders").toString());
        assertThat(orders(forOps).at("/queue/writers/0/pid").asLong()).isEqualTo(ProcessHandle.current().pid());
        assertThat(orders(forOps).at("/queue/writers/0/host").asString()).isNotEqualTo("******");
        assertThat(orders(forAuditor).at("/queue/path").asString()).isEqualTo("******");
        JsonNode hiddenPid = orders(forAuditor).at("/queue/writers/0/pid");
        assertThat(hiddenPid.isNull() || hiddenPid.isMissingNode()).as("pid " + hiddenPid).isTrue();
        assertThat(orders(forAuditor).at("/queue/writers/0/host").asString()).isEqualTo("******");
        assertThat(forAuditor.toString()).doesNotContain(DIR.toString());
    }

    static JsonNode orders(JsonNode overview) {
        for (JsonNode queue : overview.get("queues")) {
            if (queue.get("name").asString().equals("orders")) {
                return queue;
            }
        }
        throw new AssertionError("no queue named orders in " + overview);
    }
}
