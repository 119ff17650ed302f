package io.cq.spring.boot.console;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * Headless Chromium driven through its ChromeDriver, for the console's tests. Chromium and ChromeDriver are found or
 * installed by {@code bin/install-chromium} (Debian's packages, with apt-get, as root); where that cannot be done
 * the test is skipped, with the script's reason. Screenshots go to target/console-screenshots, and also to
 * docs/console when the build runs with {@code -Dcq.docs.update=true} (the pictures of docs/console.md).
 */
final class Browser implements AutoCloseable {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().getParent();
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static Map<String, String> installed;

    private final WebDriver driver;
    private final Path profile;

    private Browser(WebDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    /** A fresh headless Chromium with its own profile; skips the test when none can be installed. */
    static Browser open() throws IOException {
        Map<String, String> binaries = install();
        Path profile = Files.createTempDirectory("cq-console-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(binaries.get("chromium"));
        // as root the sandbox must be off; the rest keeps Chromium from reaching out to the internet
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1000",
                "--force-device-scale-factor=1");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(binaries.get("chromedriver"))).usingAnyFreePort().build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        return new Browser(driver, profile);
    }

    private static synchronized Map<String, String> install() {
        if (installed != null) {
            return installed;
        }
        Path script = ROOT.resolve("bin/install-chromium");
        String output;
        int exit;
        try {
            Process process = new ProcessBuilder(script.toString()).redirectErrorStream(true).start();
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                exit = -1;
            } else {
                exit = process.exitValue();
            }
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
        String reason = output.lines().filter(line -> line.startsWith("cannot ") || line.startsWith("apt-get"))
                .reduce((first, second) -> second).orElse(output.strip());
        Assumptions.assumeTrue(exit == 0 && found.size() == 2,
                () -> "no headless Chromium for the console's browser tests: " + reason);
        installed = Map.copyOf(found);
        return installed;
    }

    WebDriver driver() {
        return driver;
    }

    void get(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    List<WebElement> findAll(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** Waits until an element shows, and returns it. */
    WebElement waitFor(String css) {
        await().atMost(Duration.ofSeconds(15)).ignoreException(StaleElementReferenceException.class)
                .until(() -> !findAll(css).isEmpty() && findAll(css).getFirst().isDisplayed());
        return find(css);
    }

    /** Waits until an element's text is exactly this. */
    void waitForText(String css, String text) {
        await().atMost(Duration.ofSeconds(15)).ignoreException(StaleElementReferenceException.class)
                .until(() -> findAll(css).stream().anyMatch(element -> element.getText().equals(text)));
    }

    Object script(String script, Object... arguments) {
        return ((JavascriptExecutor) driver).executeScript(script, arguments);
    }

    /** Saves what the browser shows as {@code name}.png. */
    void screenshot(String name) throws IOException {
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
        if (Boolean.getBoolean("cq.docs.update")) {
            Path docs = ROOT.resolve("docs/console");
            Files.createDirectories(docs);
            Files.write(docs.resolve(name + ".png"), png);
        }
    }

    @Override
    public void close() throws IOException {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
