package io.cq.benchmarks.console;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.spring.core.QueueTemplate;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Child JVM of the console section's first two tables: a Spring Boot web application with the console on, ten
 * queues, one of them ("big") holding {@code excerpts} method-writer calls of four arguments, the nine others 100
 * texts each (the setting of issue 42's targets). Then, against its own port:
 * <ul>
 *   <li>pages of 50 excerpts of "big", every kind in turn (the first page, the last, the middle one, the page before
 *       and after a random index, a jump to a random index and to a time), {@code requests} of each after
 *       {@code warm-up} requests; each printed as {@code page <kind> <service ms> <round trip ms>}, where the
 *       service's figure is the {@code total} of the answer's Server-Timing (positioning a tailer, reading, decoding
 *       and rendering 50 messages, writing the JSON) and the round trip the HTTP client's, in this JVM;</li>
 *   <li>every request the page makes on load, in its order, over HTTP: {@code load <request> <round trip ms>};</li>
 *   <li>with Chromium: the page loaded in headless Chromium ({@link PageInBrowser}).</li>
 * </ul>
 */
public final class ConsolePageHarness {
    /** The console's path on the application's port. */
    public static final String CONSOLE = "/actuator/queues-console";
    /** Every request the page makes when it opens on the excerpt browser, in order. */
    static final List<String> PAGE_REQUESTS = List.of("/", "/console.css", "/console.js", "/views.js",
            "/excerpts.js", "/chart.js", "/api/overview", "/api/queues/big/excerpts?from=end");
    private static final Pattern TOTAL = Pattern.compile("total;dur=([0-9.]+)");
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ConsolePageHarness() {
    }

    /** What "big" holds: orders, as a method writer sends them. */
    public interface Orders {
        void onOrder(long id, String symbol, int quantity, double price);
    }

    /** The application: the starter's auto-configuration only. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class Service {
    }

    /**
     * {@code <dir> <excerpts> <requests per kind> <warm-up requests> <browser loads> [<chromium> <chromedriver>]};
     * without the last two, no browser.
     */
    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        int excerpts = Integer.parseInt(args[1]);
        int requests = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        int loads = Integer.parseInt(args[4]);
        List<String> properties = new ArrayList<>(List.of("--cq.base-path=" + directory, "--cq.console.enabled=true",
                "--server.port=0", "--management.endpoints.web.exposure.include=queues",
                "--spring.main.banner-mode=off", "--logging.level.root=warn", "--cq.queues.big.roll-cycle=daily"));
        for (int q = 1; q <= 9; q++) {
            properties.add("--cq.queues.q" + q + ".roll-cycle=daily");
        }
        SpringApplication application = new SpringApplication(Service.class);
        application.setLogStartupInfo(false);
        try (ConfigurableApplicationContext context = application.run(properties.toArray(String[]::new))) {
            String base = "http://localhost:" + context.getEnvironment().getProperty("local.server.port") + CONSOLE;
            MappedQueue big = context.getBean("big", MappedQueue.class);
            fill(big, context.getBean(QueueTemplate.class), excerpts);
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

            long first = big.firstIndex();
            long last = big.lastIndex();
            SplittableRandom random = new SplittableRandom(42);
            LongFunction<Long> anywhere = n -> first + 50 + random.nextLong(last - first - 100);
            Map<String, LongFunction<String>> kinds = new LinkedHashMap<>();
            kinds.put("first page", n -> "from=start");
            kinds.put("last page", n -> "from=end");
            kinds.put("middle page", n -> "from=at&index=" + (first + (last - first) / 2));
            kinds.put("backward (the page before an index)", n -> "from=before&index=" + anywhere.apply(n));
            kinds.put("forward (the page after an index)", n -> "from=after&index=" + anywhere.apply(n));
            kinds.put("jump to an index", n -> "from=at&index=" + anywhere.apply(n));
            kinds.put("jump to a time", n -> "from=time&time=" + Instant.now().truncatedTo(ChronoUnit.HOURS));
            boolean cold = true;
            for (int i = 0; i < warmup + requests; i++) {
                for (Map.Entry<String, LongFunction<String>> kind : kinds.entrySet()) {
                    double[] cost = page(http, base, kind.getValue().apply(i));
                    if (cold || i >= warmup) {
                        System.out.printf(Locale.ROOT, "%s %s|%.3f|%.3f%n", cold ? "cold" : "page", kind.getKey(),
                                cost[0], cost[1]);
                    }
                    cold = false;
                }
            }
            for (int load = 0; load < Math.max(loads, 3); load++) {
                for (String request : PAGE_REQUESTS) {
                    long started = System.nanoTime();
                    HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(URI.create(base + request))
                            .build(), HttpResponse.BodyHandlers.ofByteArray());
                    double millis = (System.nanoTime() - started) / 1e6;
                    check(response, request);
                    System.out.printf(Locale.ROOT, "load %s|%.3f%n", request, millis);
                }
            }
            if (args.length > 6) {
                PageInBrowser.measure(base + "/#excerpts", loads, args[5], args[6]);
            } else {
                System.out.println("browser-skipped no Chromium and ChromeDriver given");
            }
        }
    }

    private static void fill(MappedQueue big, QueueTemplate template, int excerpts) {
        long started = System.nanoTime();
        try (ExcerptAppender appender = big.createAppender()) {
            Orders orders = Messages.methodWriter(appender, Orders.class);
            String[] symbols = {"AAPL", "MSFT", "GOOG", "AMZN", "NVDA"};
            for (int i = 0; i < excerpts; i++) {
                orders.onOrder(i, symbols[i % symbols.length], 1 + i % 500, 100 + (i % 10_000) / 100.0);
            }
        }
        for (int q = 1; q <= 9; q++) {
            for (int i = 0; i < 100; i++) {
                template.appendText("q" + q, "excerpt " + i + " of q" + q);
            }
        }
        long held = big.countExcerpts(big.firstIndex(), big.lastIndex() + 1);
        if (held != excerpts) {
            throw new IllegalStateException("big holds " + held + " excerpts, not " + excerpts);
        }
        System.out.printf(Locale.ROOT, "filled %d|%.3f%n", excerpts, (System.nanoTime() - started) / 1e9);
    }

    /** One page of "big": {service ms, round trip ms}; fails unless it is 50 excerpts. */
    private static double[] page(HttpClient http, String base, String query) throws IOException,
            InterruptedException {
        long started = System.nanoTime();
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base
                + "/api/queues/big/excerpts?" + query)).build(), HttpResponse.BodyHandlers.ofString());
        double roundTrip = (System.nanoTime() - started) / 1e6;
        if (response.statusCode() != 200 || countExcerpts(response.body()) != 50) {
            throw new IllegalStateException(query + ": " + response.statusCode() + " " + response.body()
                    .substring(0, Math.min(300, response.body().length())));
        }
        Matcher total = TOTAL.matcher(response.headers().firstValue("Server-Timing").orElse(""));
        if (!total.find()) {
            throw new IllegalStateException(query + ": no Server-Timing total");
        }
        return new double[] {Double.parseDouble(total.group(1)), roundTrip};
    }

    private static int countExcerpts(String json) {
        return JSON.readTree(json).path("excerpts").size();
    }

    private static void check(HttpResponse<byte[]> response, String request) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException(request + " answered " + response.statusCode());
        }
    }
}
