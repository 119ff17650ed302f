package io.cq.spring.boot.console;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What bounds the cost of browsing (issue 42, "live and bounded"), as behaviour: wherever a page starts, a request
 * reads at most a page of excerpts, the right ones; no tailer stays open after it; a large payload is cut before it
 * is sent. What a page costs in time is measured by the benchmark suite's console section (docs/console.md, "Live
 * updates and what a viewer costs"), not here.
 */
@SpringBootTest(classes = ConsolePageBoundsTest.TenQueues.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"cq.console.enabled=true", "management.endpoints.web.exposure.include=queues",
                "cq.console.display-limit=256", "cq.queues.big.roll-cycle=daily", "cq.queues.large.roll-cycle=daily",
                "cq.queues.q1.roll-cycle=daily", "cq.queues.q2.roll-cycle=daily", "cq.queues.q3.roll-cycle=daily",
                "cq.queues.q4.roll-cycle=daily", "cq.queues.q5.roll-cycle=daily", "cq.queues.q6.roll-cycle=daily",
                "cq.queues.q7.roll-cycle=daily", "cq.queues.q8.roll-cycle=daily"})
class ConsolePageBoundsTest {
    private static final int EXCERPTS = 2_000;
    private static final int PAGE = 50;
    private static final Path DIR = Path.of("target", "console-bounds-test-" + UUID.randomUUID()).toAbsolutePath();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static boolean filled;

    private final HttpClient http = HttpClient.newHttpClient();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class TenQueues {
    }

    /** What the big queue holds: orders, as a method writer sends them. */
    public interface Orders {
        void onOrder(long id, String symbol, int quantity, double price);
    }

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("big")
    MappedQueue big;

    @Autowired
    QueueTemplate template;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @BeforeEach
    void fillOnce() {
        if (filled) {
            return;
        }
        try (ExcerptAppender appender = big.createAppender()) {
            Orders orders = Messages.methodWriter(appender, Orders.class);
            for (int i = 0; i < EXCERPTS; i++) {
                orders.onOrder(i, "AAPL", 1 + i % 500, 100 + i / 100.0);
            }
        }
        template.appendText("large", "z".repeat(10_000));
        filled = true;
    }

    @Test
    void shouldReadExactlyOnePageOfTheRightExcerptsWhereverThePageStarts() throws Exception {
        long first = big.firstIndex();
        long last = big.lastIndex();
        long middle = first + EXCERPTS / 2;

        assertThat(indexes("from=start")).containsExactlyElementsOf(range(first, PAGE));
        assertThat(indexes("from=end")).containsExactlyElementsOf(range(last - PAGE + 1, PAGE));
        assertThat(indexes("from=at&index=" + middle)).containsExactlyElementsOf(range(middle, PAGE));
        assertThat(indexes("from=after&index=" + middle)).containsExactlyElementsOf(range(middle + 1, PAGE));
        assertThat(indexes("from=before&index=" + middle)).containsExactlyElementsOf(range(middle - PAGE, PAGE));
        assertThat(indexes("from=time&time=" + Instant.now().truncatedTo(ChronoUnit.HOURS)))
                .as("a time in the one daily cycle: its first excerpts").containsExactlyElementsOf(range(first, PAGE));
        assertThat(indexes("from=start&limit=100000")).as("the page size caps what a request asks for")
                .hasSize(PAGE);
        assertThat(indexes("from=start&limit=7")).as("a smaller page when asked").hasSize(7);
    }

    @Test
    void shouldHoldNoTailerOpenAfterARequest() throws Exception {
        int before = big.resources().openTailers();
        for (String query : List.of("from=start", "from=end", "from=at&index=" + (big.firstIndex() + 100),
                "from=after&index=" + big.firstIndex(), "from=before&index=" + big.lastIndex(),
                "from=time&time=" + Instant.now(), "from=at&index=" + (big.lastIndex() + 1_000))) {
            assertThat(get("/api/queues/big/excerpts?" + query).statusCode()).as(query).isEqualTo(200);
            assertThat(big.resources().openTailers()).as("open tailers after " + query).isEqualTo(before);
        }
    }

    @Test
    void shouldCutALargePayloadBeforeSendingIt() throws Exception {
        HttpResponse<String> response = get("/api/queues/large/excerpts?from=start");

        JsonNode excerpt = JSON.readTree(response.body()).get("excerpts").get(0);
        assertThat(excerpt.get("length").asLong()).isGreaterThanOrEqualTo(10_000);
        assertThat(excerpt.get("cut").asBoolean()).isTrue();
        assertThat(excerpt.get("text").asString()).startsWith("z".repeat(256)).endsWith(" more characters)")
                .hasSizeLessThan(300);
        assertThat(response.body().length()).as("the whole answer, every rendering of the excerpt cut")
                .isLessThan(2_000);
    }

    @Test
    void shouldListEveryQueueInTheOverview() throws Exception {
        JsonNode overview = JSON.readTree(get("/api/overview").body());

        assertThat(overview.get("queues")).hasSize(10);
    }

    private List<Long> indexes(String query) throws IOException, InterruptedException {
        HttpResponse<String> response = get("/api/queues/big/excerpts?" + query);
        assertThat(response.statusCode()).as(query).isEqualTo(200);
        assertThat(response.headers().firstValue("Server-Timing")).as(query).hasValueSatisfying(timing ->
                assertThat(timing).matches("read;dur=[0-9.]+, total;dur=[0-9.]+"));
        List<Long> indexes = new ArrayList<>();
        JSON.readTree(response.body()).get("excerpts").forEach(excerpt -> indexes.add(excerpt.get("index")
                .asLong()));
        return indexes;
    }

    private static List<Long> range(long from, int count) {
        List<Long> indexes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            indexes.add(from + i);
        }
        return indexes;
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/queues-console"
                + path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
