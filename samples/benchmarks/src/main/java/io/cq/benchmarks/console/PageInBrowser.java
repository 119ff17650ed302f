package io.cq.benchmarks.console;

import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The console's page in headless Chromium driven by Selenium, opened on the excerpt browser {@code loads + 1} times
 * (the first, in a browser whose cache is empty and a JVM that has served no page yet, reported apart), each after
 * {@code about:blank}. The page marks its own milestones, in milliseconds since the navigation started
 * ({@code performance.now()}): {@code body[data-loaded-ms]} when it has shown the queues, and
 * {@code #excerpts[data-rendered-ms]} when it has rendered the page of excerpts. Prints
 * {@code browser <cold|warm>|<queues shown ms>|<excerpts rendered ms>|<rows>} per load, and for the warm loads every
 * request the browser made until then, from the Resource Timing API: {@code resource <path>|<duration ms>|<request to
 * first byte ms>}, the page itself first.
 */
final class PageInBrowser {
    private static final String RENDERED = "return document.getElementById('excerpts').dataset.renderedMs";

    private PageInBrowser() {
    }

    static void measure(String url, int loads, String chromium, String chromedriver) throws IOException,
            InterruptedException {
        Path profile = Files.createTempDirectory("cq-console-bench-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(chromium);
        // as root the sandbox must be off; the rest keeps Chromium from reaching out to the internet
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1000");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(chromedriver)).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        try {
            driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
            for (int load = 0; load <= loads; load++) {
                driver.get("about:blank");
                driver.get(url);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (driver.executeScript(RENDERED) == null) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("the page rendered no excerpts within 30 s");
                    }
                    Thread.sleep(5);
                }
                Object loaded = driver.executeScript("return document.body.dataset.loadedMs");
                Object rendered = driver.executeScript(RENDERED);
                Object rows = driver.executeScript(
                        "return document.querySelectorAll('#excerpt-table tbody tr.excerpt').length");
                System.out.printf(Locale.ROOT, "browser %s|%s|%s|%s%n", load == 0 ? "cold" : "warm", loaded, rendered,
                        rows);
                if (load > 0) {
                    resources(driver);
                }
            }
        } finally {
            driver.quit();
            try (var files = Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    private static void resources(JavascriptExecutor driver) {
        Object entries = driver.executeScript("return performance.getEntriesByType('navigation')"
                + ".concat(performance.getEntriesByType('resource')).map(e => "
                + "[new URL(e.name).pathname + new URL(e.name).search, e.duration, e.responseStart - e.requestStart])");
        for (Object entry : (List<?>) entries) {
            List<?> fields = (List<?>) entry;
            String path = String.valueOf(fields.get(0));
            int console = path.indexOf(ConsolePageHarness.CONSOLE);
            System.out.printf(Locale.ROOT, "resource %s|%.3f|%.3f%n", console < 0 ? path
                    : path.substring(console + ConsolePageHarness.CONSOLE.length()),
                    ((Number) fields.get(1)).doubleValue(), ((Number) fields.get(2)).doubleValue());
        }
    }
}
