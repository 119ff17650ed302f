package io.cq.spring.boot.console;

import io.cq.spring.console.ConsolePath;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
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
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's HTTP side, in the application of {@link ConsoleInBrowserTest}: what its answers carry, and the write
 * actions refused without the token, from another site or as a form.
 */
@SpringBootTest(classes = ConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"cq.console.enabled=true", "cq.console.refresh-interval=300ms", "cq.console.chart-window=1m",
                "management.endpoints.web.exposure.include=health,queues,metrics",
                "management.endpoint.queues.access=unrestricted",
                "cq.queues.orders.roll-cycle=daily", "cq.queues.orders-dlq.roll-cycle=daily",
                "cq.queues.trades.roll-cycle=daily", "cq.queues.events.roll-cycle=daily",
                "cq.queues.messages.roll-cycle=daily", "cq.queues.damaged.roll-cycle=daily",
                "cq.queues.scratch.roll-cycle=daily",
                "cq.listener.recoverer=dead-letter", "cq.listener.dead-letter-queue=orders-dlq",
                "cq.listener.retry.max-attempts=1"})
class ConsoleOverHttpTest {
    private static final Path DIR = Path.of("target", "console-http-test-" + UUID.randomUUID()).toAbsolutePath();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String LISTENER = "/api/queues/orders/listeners/billing";
    private static final String PAUSE = "{\"action\":\"pause\"}";
    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    QueueTemplate template;

    @Autowired
    PathMappedEndpoints actuatorPaths;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + port + "/actuator/queues-console" + path);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String contentType, String body, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String token() throws IOException, InterruptedException {
        return JSON.readTree(get("/api/overview").body()).get("token").asString();
    }

    @Test
    void shouldServeThePageAsHtml() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
                .startsWith("text/html"));
    }

    @Test
    void shouldServeThePageWithAPolicyThatAllowsOnlyItsOwnScripts() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(policy ->
                assertThat(policy).contains("default-src 'none'").contains("script-src 'self';"));
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }

    @Test
    void shouldLoadOnlyItsOwnScriptAndNothingFromAnotherSite() throws Exception {
        assertThat(get("/").body()).contains("<script type=\"module\" src=\"console.js\"></script>")
                .doesNotContain("http://").doesNotContain("https://");
    }

    @Test
    void shouldServeItsScriptsAsJavaScript() throws Exception {
        assertThat(get("/console.js").headers().firstValue("Content-Type")).hasValueSatisfying(type ->
                assertThat(type).startsWith("text/javascript"));
    }

    @Test
    void shouldServeScriptsThatPutDataOnThePageAsTextOnly() throws Exception {
        for (String script : new String[] {"/console.js", "/views.js", "/excerpts.js", "/chart.js"}) {
            assertThat(get(script).body()).as("%s puts data on the page as text only", script)
                    .doesNotContain("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(");
        }
    }

    @Test
    void shouldRedirectItsPathWithoutTheSlashToThePage() throws Exception {
        HttpResponse<String> bare = http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/actuator/queues-console")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bare.statusCode()).isEqualTo(302);
        assertThat(bare.headers().firstValue("Location")).hasValue("/actuator/queues-console/");
    }

    /** What Spring Security's EndpointRequest matchers read: a rule for the Actuator's endpoints covers the console. */
    @Test
    void shouldStandAmongTheActuatorsPathsForTheRulesWrittenForThem() {
        assertThat(actuatorPaths.getAllPaths()).contains("/actuator/queues", "/actuator/queues-console");
        assertThat(actuatorPaths.getPath(ConsolePath.ID)).isEqualTo("/actuator/queues-console");
    }

    @Test
    void shouldSayItIsWritableAndGiveATokenForWrites() throws Exception {
        JsonNode overview = JSON.readTree(get("/api/overview").body());
        assertThat(overview.get("writable").asBoolean()).isTrue();
        assertThat(overview.get("token").asString()).hasSizeGreaterThan(40);
    }

    @Test
    void shouldGiveTheFiguresOfTheQueuesEndpointWithItsValuesHidden() throws Exception {
        JsonNode overview = JSON.readTree(get("/api/overview").body());
        JsonNode orders = null;
        for (JsonNode queue : overview.get("queues")) {
            if (queue.get("name").asString().equals("orders")) {
                orders = queue;
            }
        }
        assertThat(orders).isNotNull();
        assertThat(orders.at("/queue/path").asString()).isEqualTo("******");
        assertThat(orders.at("/queue/listeners/0/id").asString()).isEqualTo("billing");
        assertThat(orders.at("/queue/settings/codecs").asString()).isEqualTo("none");
        assertThat(orders.at("/queue/apparentBytes").asLong()).isPositive();
        assertThat(orders.at("/disk/usableBytes").asLong()).isPositive();
    }

    @Test
    void shouldReadAtMostAPageOfExcerpts() throws Exception {
        for (int i = 0; i < 60; i++) {
            template.appendText("scratch", "line " + i);
        }
        HttpResponse<String> response = get("/api/queues/scratch/excerpts?from=start&limit=1000");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode page = JSON.readTree(response.body());
        assertThat(page.get("excerpts")).as("the page size caps what a request asks for").hasSize(50);
        assertThat(page.get("more").asBoolean()).isTrue();
    }

    @Test
    void shouldSayHowLongReadingExcerptsTook() throws Exception {
        template.appendText("scratch", "timed");
        HttpResponse<String> response = get("/api/queues/scratch/excerpts?from=start");
        assertThat(response.headers().firstValue("Server-Timing")).hasValueSatisfying(timing ->
                assertThat(timing).matches("read;dur=[0-9.]+, total;dur=[0-9.]+"));
    }

    @Test
    void shouldAnswerBadRequestForAnIndexThatIsNoNumber() throws Exception {
        assertThat(get("/api/queues/scratch/excerpts?from=at&index=banana").statusCode()).isEqualTo(400);
    }

    @Test
    void shouldAnswerNotFoundForTheExcerptsOfAnUnknownQueue() throws Exception {
        assertThat(get("/api/queues/nothing/excerpts").statusCode()).isEqualTo(404);
    }

    @Test
    void shouldRefuseAWriteWithoutTheToken() throws Exception {
        assertThat(post(LISTENER, "application/json", PAUSE).statusCode()).isEqualTo(403);
        assertThat(post(LISTENER, "application/json", PAUSE, "X-CQ-Console-Token", "guess").statusCode())
                .isEqualTo(403);
        assertNothingPaused();
    }

    @Test
    void shouldRefuseAWriteThatIsNotJson() throws Exception {
        assertThat(post(LISTENER, "text/plain", PAUSE, "X-CQ-Console-Token", token()).statusCode()).isEqualTo(403);
        assertThat(post(LISTENER, "application/x-www-form-urlencoded", "action=pause", "X-CQ-Console-Token", token())
                .statusCode()).isEqualTo(403);
        assertNothingPaused();
    }

    @Test
    void shouldRefuseAWriteFromAnotherSite() throws Exception {
        HttpResponse<String> crossSite = post(LISTENER, "application/json", PAUSE, "X-CQ-Console-Token", token(),
                "Sec-Fetch-Site", "cross-site");
        assertThat(crossSite.statusCode()).isEqualTo(403);
        assertThat(crossSite.body()).contains("another site");
        assertNothingPaused();
    }

    private void assertNothingPaused() throws Exception {
        assertThat(JSON.readTree(get("/api/overview").body()).at("/queues").toString()).contains("\"RUNNING\"")
                .doesNotContain("\"PAUSED\"");
    }

    @Test
    void shouldAnswerNotFoundForAWriteToAnUnknownListener() throws Exception {
        HttpResponse<String> unknown = post("/api/queues/orders/listeners/nobody", "application/json", PAUSE,
                "X-CQ-Console-Token", token(), "Sec-Fetch-Site", "same-origin");
        assertThat(unknown.statusCode()).isEqualTo(404);
    }

    @Test
    void shouldAnswerBadRequestForAnUnknownAction() throws Exception {
        HttpResponse<String> badAction = post(LISTENER, "application/json", "{\"action\":\"explode\"}",
                "X-CQ-Console-Token", token());
        assertThat(badAction.statusCode()).isEqualTo(400);
        assertThat(badAction.body()).contains("unknown action");
    }
}
