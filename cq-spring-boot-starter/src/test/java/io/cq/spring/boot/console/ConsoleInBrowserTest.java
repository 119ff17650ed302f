package io.cq.spring.boot.console;

import io.cq.core.MappedQueue;
import io.cq.core.message.ExcerptRendering;
import io.cq.core.message.TextHeaders;
import io.cq.spring.boot.console.ConsoleApplication.Billing;
import io.cq.spring.config.ListenerContainerRegistry;
import io.cq.spring.core.QueueTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The console in headless Chromium, against a running application with listeners, an adapter and dead letters. */
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
class ConsoleInBrowserTest {
    /** Under target/: the cached context outlives the class, so nothing may delete its queues before the JVM ends. */
    private static final Path DIR = Path.of("target", "console-test-" + UUID.randomUUID()).toAbsolutePath();
    private static final String TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    private static final String SCRIPT = "<script>alert(1)</script>";
    private static final String BILLING = "tr[data-listener=billing]";
    private static Browser browser;
    /**
     * The context, and so the queues, outlive each test: what several tests look at is written once, by the first
     * (120 events, the paging tests expecting events to hold these only; a queue with a damaged excerpt).
     */
    private static long firstEvent = -1;
    private static long hundredthEvent = -1;
    private static boolean damageDone;

    @LocalServerPort
    int port;

    @Autowired
    QueueTemplate template;

    @Autowired
    Billing billing;

    @Autowired
    @Qualifier("damaged")
    MappedQueue damaged;

    @DynamicPropertySource
    static void queueDirectory(DynamicPropertyRegistry registry) {
        registry.add("cq.base-path", DIR::toString);
    }

    @Autowired
    ListenerContainerRegistry listeners;

    @BeforeAll
    static void openBrowser() throws IOException {
        browser = Browser.open();
    }

    /** Each test starts with billing reading, whatever the one before left it doing. */
    @BeforeEach
    void billingRuns() {
        if (listeners.container("billing").isPaused()) {
            listeners.resume("billing");
        }
    }

    @AfterAll
    static void closeBrowser() throws IOException {
        if (browser != null) {
            browser.close();
        }
    }

    /** Loads the console afresh on a tab, and waits for its first figures. */
    private void open(String tab) {
        browser.get("about:blank");
        browser.get("http://localhost:" + port + "/actuator/queues-console/#" + tab);
        await().atMost(Duration.ofSeconds(15)).until(() -> browser.script("return document.body.dataset.refreshes")
                != null);
    }

    /** Opens the queues tab once orders holds an excerpt, and returns the card of orders. */
    private WebElement showOrders() {
        template.appendText("orders", "order-q1");
        open("queues");
        return browser.waitFor("article[data-queue=orders]");
    }

    @Test
    void shouldShowEveryQueueWithWhatEachOfItsDiskFiguresIs() throws IOException {
        WebElement card = showOrders();
        String text = card.getText();
        assertThat(text).contains("DAILY").contains("Codecs").contains("none").contains("Cycles on disk")
                .contains("First index").contains("Last index")
                .contains("Written").contains("what the files hold")
                .contains("Allocated").contains("what du counts")
                .contains("Apparent size").contains("not disk used")
                .contains("Free disk").contains("Disk health");
        browser.script("arguments[0].scrollIntoView()", card);
        browser.screenshot("queues");
    }

    @Test
    void shouldHideTheQueuesDirectoryByDefault() {
        showOrders();
        assertThat(browser.find("article[data-queue=orders] .path").getText())
                .as("show-values is never by default: the directory is hidden as in the queues endpoint")
                .isEqualTo("******");
    }

    @Test
    void shouldMarkTheDeadLetterQueue() {
        showOrders();
        assertThat(browser.find("article[data-queue=orders-dlq] h2").getText()).contains("dead letters");
    }

    /** Opens the excerpts of events, which a queue opens on its last page: the last 50 excerpts. */
    private void browseEvents() {
        if (firstEvent < 0) {
            for (int i = 0; i < 120; i++) {
                long index = template.appendText("events", String.format("event %03d", i));
                firstEvent = i == 0 ? index : firstEvent;
                hundredthEvent = i == 100 ? index : hundredthEvent;
            }
        }
        open("excerpts");
        choose("events");
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 070", "event 119", 50));
    }

    private void page(String direction) {
        browser.find("#excerpt-controls button[data-page=" + direction + "]").click();
    }

    private void jumpToIndex(long index) {
        browser.find("#excerpt-index").clear();
        browser.find("#excerpt-index").sendKeys("0x" + Long.toHexString(index));
        page("at");
    }

    @Test
    void shouldOpenAQueueOnItsLastPage() {
        browseEvents();
        assertThat(summaries()).hasSize(50).endsWith("event 119");
    }

    @Test
    void shouldPageBackAndForthThroughTheExcerpts() {
        browseEvents();
        page("before");
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 020", "event 069", 50));
        page("before");
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 000", "event 019", 20));
        page("after");
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 020", "event 069", 50));
    }

    @Test
    void shouldOfferNoPageBeforeTheFirst() {
        browseEvents();
        page("before");
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 020", "event 069", 50));
        page("before");
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 000", "event 019", 20));
        assertThat(browser.find("#excerpt-controls button[data-page=before]").isEnabled()).isFalse();
    }

    @Test
    void shouldJumpToAnIndex() {
        browseEvents();
        jumpToIndex(hundredthEvent);
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 100", "event 119", 20));
        assertThat(browser.find("#excerpt-table tbody tr").getAttribute("data-index"))
                .isEqualTo("0x" + Long.toHexString(hundredthEvent));
    }

    @Test
    void shouldJumpToTheFirstExcerptOfTheCycleThatHoldsATime() {
        browseEvents();
        // excerpts carry no time: a time finds the first excerpt of the cycle that holds it (today's)
        browser.script("document.getElementById('excerpt-time').value = arguments[0]",
                java.time.LocalDateTime.now().withNano(0).toString());
        page("time");
        await().atMost(Duration.ofSeconds(10)).until(() -> showing("event 000", "event 049", 50));
    }

    @Test
    void shouldSayWhichIndexesTheQueueHoldsWhenAskedForOneItDoesNot() {
        browseEvents();
        jumpToIndex(firstEvent + 100_000);
        browser.waitForText("#excerpt-info [data-field=note]", "the queue holds no excerpt with index 0x"
                + Long.toHexString(firstEvent + 100_000) + "; it holds 0x" + Long.toHexString(firstEvent) + " to 0x"
                + Long.toHexString(firstEvent + 119));
    }

    /** Appends a text that is markup and a message with markup in its payload, and shows them. */
    private void browseMarkup() {
        template.appendText("messages", SCRIPT);
        template.append("messages", Map.of("customer", "<img src=x onerror=alert(2)>", "quantity", 3),
                new TextHeaders().put("traceparent", TRACEPARENT).put("cq_correlation_id", "c-42"));
        open("excerpts");
        choose("messages");
        await().atMost(Duration.ofSeconds(10)).until(() -> summaries().contains(SCRIPT));
    }

    @Test
    void shouldShowAnExcerptThatIsMarkupAsTheTextItIs() {
        browseMarkup();
        assertThat(browser.findAll("#excerpt-table script, #excerpt-table img")).as("no element made of data")
                .isEmpty();
        assertThat(browser.script("return document.querySelectorAll('script').length")).isEqualTo(1L);
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
    }

    @Test
    void shouldShowAMessagesPayloadAndTraceInItsRow() {
        browseMarkup();
        WebElement message = browser.findAll("#excerpt-table tr[data-kind=message]").getLast();
        assertThat(message.getText()).contains("<img src=x onerror=alert(2)>").contains("trace "
                + "4bf92f3577b34da6a3ce929d0e0e4736");
    }

    @Test
    void shouldShowAMessagesJsonAndHeadersInItsDetails() throws IOException {
        browseMarkup();
        browser.findAll("#excerpt-table tr[data-kind=message]").getLast().click();
        WebElement details = browser.waitFor("#excerpt-table tr.details");
        assertThat(details.findElement(By.cssSelector("pre.json")).getText())
                .startsWith("{\"index\":\"0x").contains("\"method\":\"\"").contains("<img src=x onerror=alert(2)>")
                .contains("\"headers\":{\"traceparent\":\"" + TRACEPARENT + "\"");
        assertThat(details.findElement(By.cssSelector("table.headers")).getText()).contains("cq_correlation_id c-42");
        browser.screenshot("excerpts");
    }

    /** Pauses billing once it has caught up, then appends five orders it does not read. */
    private void pauseBillingAndAppendFive(String prefix) {
        open("listeners");
        browser.waitForText(BILLING + " [data-field=state]", "RUNNING");
        browser.waitForText(BILLING + " [data-field=lag]", "0");
        browser.find(BILLING + " button[data-action=pause]").click();
        browser.waitForText(BILLING + " [data-field=state]", "PAUSED");
        for (int i = 1; i <= 5; i++) {
            template.appendText("orders", prefix + i);
        }
        browser.waitForText(BILLING + " [data-field=lag]", "5");
    }

    @Test
    void shouldSeeALagAppearWhileTheListenerIsPaused() throws IOException {
        pauseBillingAndAppendFive("order-lag-");
        assertThat(billing.billed).doesNotContain("order-lag-1");
        // the lag chart, from the cq.listener.lag meter, has its sample of it too
        await().atMost(Duration.ofSeconds(10)).until(() -> String.valueOf(browser.script("return Array.from("
                + "document.querySelectorAll('tr[data-listener=billing] svg title'), t => t.textContent).join()"))
                .contains("lag 5.00"));
        browser.screenshot("listeners");
    }

    @Test
    void shouldSeeTheLagClearWhenThePausedListenerResumes() {
        pauseBillingAndAppendFive("order-resumed-");
        browser.find(BILLING + " button[data-action=resume]").click();
        browser.waitForText(BILLING + " [data-field=state]", "RUNNING");
        browser.waitForText(BILLING + " [data-field=lag]", "0");
        assertThat(billing.billed).contains("order-resumed-1", "order-resumed-5");
    }

    @Test
    void shouldMoveAPausedListenerOntoAnIndex() {
        long again = template.appendText("orders", "order-seek");
        await().atMost(Duration.ofSeconds(10)).until(() -> billing.billed.contains("order-seek"));
        open("listeners");
        String row = "tr[data-listener=billing]";
        browser.find(row + " button[data-action=pause]").click();
        browser.waitForText(row + " [data-field=state]", "PAUSED");
        browser.find(row + " input").sendKeys("0x" + Long.toHexString(again));
        browser.find(row + " button[data-action=seek-to-index]").click();
        browser.waitForText(row + " [data-field=next]", "0x" + Long.toHexString(again));
        browser.find(row + " button[data-action=resume]").click();
        await().atMost(Duration.ofSeconds(10)).until(() -> billing.billed.stream()
                .filter("order-seek"::equals).count() == 2);
        browser.waitForText(row + " [data-field=lag]", "0");
    }

    @Test
    void shouldListDeadLettersWithTheExceptionOfEach() throws IOException {
        template.appendText("orders", "poison-7");
        await().atMost(Duration.ofSeconds(10)).until(() -> template.queue("orders-dlq").lastIndex() >= 0);
        open("dead-letters");
        WebElement letter = browser.waitFor("#dead-letter-table tr.dead-letter");
        assertThat(letter.getText()).contains("billing").contains("java.lang.IllegalArgumentException")
                .contains("cannot bill poison-7: no such customer").contains("poison-7");
        letter.click();
        assertThat(browser.waitFor("#dead-letter-table tr.details").getText()).contains("Failed in listener billing");
        browser.screenshot("dead-letters");
    }

    /** Opens the excerpts of a queue whose second excerpt lost its header, from the start: returns that excerpt. */
    private WebElement browseDamage() throws IOException {
        if (!damageDone) {
            template.appendText("damaged", "before the damage");
            template.appendText("damaged", "this excerpt's header is lost");
            template.appendText("damaged", "after the damage");
            zeroHeaderBefore(damaged.path(), "this excerpt's header is lost");
            damageDone = true;
        }
        open("excerpts");
        choose("damaged");
        browser.find("#excerpt-controls button[data-page=start]").click();
        return browser.waitFor("#excerpt-table tr[data-kind=damaged]");
    }

    @Test
    void shouldShowCqsErrorForADamagedExcerpt() throws IOException {
        WebElement broken = browseDamage();
        assertThat(broken.getText()).contains("CorruptQueueException").contains("found empty");
        broken.click();
        assertThat(browser.waitFor("#excerpt-table tr.details").getText()).contains("cq could not read this excerpt");
    }

    @Test
    void shouldShowTheExcerptsAroundADamagedOne() throws IOException {
        browseDamage();
        assertThat(summaries()).hasSize(2).first().isEqualTo("before the damage");
    }

    @Test
    void shouldHideTheQueuesDirectoryInCqsErrors() throws IOException {
        WebElement broken = browseDamage();
        assertThat(broken.getText()).as("show-values is never: the queue's directory is hidden in errors too")
                .doesNotContain(DIR.toString()).contains("******");
    }

    @Test
    void shouldMarkAMalformedMessageAndGoOnWorking() {
        byte[] message = messageBytes();
        template.appendBytes("messages", Arrays.copyOf(message, message.length - 3));
        open("excerpts");
        choose("messages");
        WebElement malformed = browser.waitFor("#excerpt-table tr[data-kind=malformed]");
        assertThat(malformed.getText()).contains(ExcerptRendering.MALFORMED).contains("malformed");
        assertThat(browser.find("#status").isDisplayed()).as("the page itself reports no failure").isFalse();
    }

    @Test
    void shouldShowNamedTailersWithTheirPositions() throws IOException {
        template.appendText("trades", "trade-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> billing.trades.contains("trade-1"));
        open("tailers");
        browser.waitFor("section[data-view=tailers] table.tailers");
        String text = browser.find("section[data-view=tailers]").getText();
        assertThat(text).contains("orders").contains("billing").contains("trades").contains("risk");
        browser.screenshot("tailers");
    }

    @Test
    void shouldListAnAdapterBesideTheListeners() {
        open("listeners");
        browser.waitFor("tr[data-adapter=risk]");
        assertThat(browser.find("tr[data-adapter=risk]").getText()).contains("INBOUND_CHANNEL_ADAPTER")
                .contains("RUNNING");
    }

    private void choose(String queue) {
        browser.waitFor("#excerpt-queue option[value='" + queue + "']");
        new Select(browser.find("#excerpt-queue")).selectByValue(queue);
        await().atMost(Duration.ofSeconds(10)).until(() -> browser.findAll("#excerpt-info [data-field=range]").size()
                == 1 && !browser.findAll("#excerpt-table tbody tr").isEmpty());
    }

    private boolean showing(String first, String last, int count) {
        List<String> shown = summaries();
        return shown.size() == count && shown.getFirst().equals(first) && shown.getLast().equals(last);
    }

    /** The summaries of the excerpts shown, read in one go (the table may be replaced between two calls). */
    @SuppressWarnings("unchecked")
    private List<String> summaries() {
        return (List<String>) browser.script("return Array.from(document.querySelectorAll("
                + "'#excerpt-table tbody tr.excerpt td.summary code'), code => code.textContent)");
    }

    private byte[] messageBytes() {
        long index = template.append("scratch", Map.of("quantity", 1));
        try (var tailer = template.queue("scratch").createTailer()) {
            tailer.moveToIndex(index);
            try (var context = tailer.readingDocument()) {
                return ExcerptRendering.remainingBytes(context.bytes());
            }
        }
    }

    /** Zeroes the header of the excerpt holding {@code text}, as a lost write would leave it. */
    private static void zeroHeaderBefore(Path directory, String text) throws IOException {
        Path file;
        try (Stream<Path> files = Files.list(directory)) {
            file = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        byte[] content = Files.readAllBytes(file);
        byte[] needle = text.getBytes(StandardCharsets.UTF_8);
        for (int at = 4; at + needle.length <= content.length; at++) {
            if (Arrays.equals(content, at, at + needle.length, needle, 0, needle.length)) {
                try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                    channel.write(ByteBuffer.allocate(4), at - 4);
                }
                return;
            }
        }
        throw new AssertionError(text + " not found in " + file);
    }
}
