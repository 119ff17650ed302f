package io.cq.samples.secured;

import io.cq.samples.secured.SecuredConsoleApplication.Billing;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The console's own page behind Spring Security, in headless Chromium: signed in through the application's login
 * form, an operator pauses and resumes a listener with the page's buttons, which only works when the page sends
 * Spring Security's CSRF token with the console's. Chromium and ChromeDriver as the starter's browser tests find or
 * install them ({@code bin/install-chromium}); skipped with its reason where they cannot be had.
 */
@SpringBootTest(classes = SecuredConsoleApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "cq.console.refresh-interval=300ms")
class SecuredConsoleInBrowserTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent()
            .getParent();
    private static final Path DIR = Path.of("target", "secured-browser-" + UUID.randomUUID()).toAbsolutePath();
    private static final String ROW = "tr[data-listener=billing]";

    @LocalServerPort
    int port;

    @Autowired
    ListenerContainerRegistry listeners;

    @Autowired
    QueueTemplate template;

    @Autowired
    Billing billing;

    private WebDriver driver;
    private Path profile;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @BeforeEach
    void openChromium() throws IOException {
        Map<String, String> binaries = install();
        profile = Files.createTempDirectory("cq-secured-console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binaries.get("chromium"));
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1000");
        driver = new ChromeDriver(new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(binaries.get("chromedriver"))).usingAnyFreePort().build(), options);
    }

    @AfterEach
    void closeChromium() throws IOException {
        if (driver != null) {
            driver.quit();
        }
        if (profile != null) {
            try (var files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void shouldLetASignedInOperatorPauseAndResumeAListenerFromThePage() {
        driver.get("http://localhost:" + port + "/actuator/queues-console/#listeners");
        assertThat(driver.getCurrentUrl()).as("sent to sign in first").contains("/login");
        driver.findElement(By.name("username")).sendKeys("ops");
        driver.findElement(By.name("password")).sendKeys("ops-secret");
        driver.findElement(By.cssSelector("button[type=submit]")).click();
        // back on the console (a browser never sends the #fragment, so the sign-in does not keep it)
        await().atMost(Duration.ofSeconds(15)).until(() -> driver.getCurrentUrl().contains("/queues-console/"));
        driver.findElement(By.cssSelector("a[data-tab=listeners]")).click();
        waitForText(ROW + " [data-field=state]", "RUNNING");

        driver.findElement(By.cssSelector(ROW + " button[data-action=pause]")).click();
        waitForText(ROW + " [data-field=state]", "PAUSED");
        assertThat(listeners.container("billing").isPaused()).isTrue();
        assertThat(driver.findElement(By.id("status")).isDisplayed()).as("no error shown").isFalse();
        template.appendText("orders", "order-while-paused");
        waitForText(ROW + " [data-field=lag]", "1");

        driver.findElement(By.cssSelector(ROW + " button[data-action=resume]")).click();
        waitForText(ROW + " [data-field=state]", "RUNNING");
        await().atMost(Duration.ofSeconds(10)).until(() -> billing.billed.contains("order-while-paused"));
    }

    private void waitForText(String css, String text) {
        await().atMost(Duration.ofSeconds(15)).ignoreException(StaleElementReferenceException.class)
                .until(() -> driver.findElements(By.cssSelector(css)).stream()
                        .anyMatch(element -> element.getText().equals(text)));
    }

    /** Chromium and ChromeDriver from bin/install-chromium, or the test skipped with the script's reason. */
    private static Map<String, String> install() {
        String output;
        int exit;
        try {
            Process process = new ProcessBuilder(ROOT.resolve("bin/install-chromium").toString())
                    .redirectErrorStream(true).start();
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            exit = process.waitFor(10, TimeUnit.MINUTES) ? process.exitValue() : -1;
        } catch (IOException e) {
            output = e.toString();
            exit = -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            output = e.toString();
            exit = -1;
        }
        Map<String, String> found = new HashMap<>();
        for (String line : output.split("\n")) {
            int equals = line.indexOf('=');
            if (line.startsWith("chromium=") || line.startsWith("chromedriver=")) {
                found.put(line.substring(0, equals), line.substring(equals + 1).strip());
            }
        }
        String reason = output.strip();
        Assumptions.assumeTrue(exit == 0 && found.size() == 2, () -> "no headless Chromium: " + reason);
        return found;
    }
}
