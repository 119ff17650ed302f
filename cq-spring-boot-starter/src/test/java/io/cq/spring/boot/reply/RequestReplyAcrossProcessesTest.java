package io.cq.spring.boot.reply;

import io.cq.core.message.ReplyErrorException;
import io.cq.spring.boot.reply.QuoteApplication.Quote;
import io.cq.spring.boot.reply.QuoteApplication.QuoteRequest;
import io.cq.spring.boot.requester.RequesterApplication;
import io.cq.spring.boot.requester.RequesterApplication.RemoteQuotes;
import io.cq.spring.core.QueueTemplate;
import io.cq.spring.core.ReplyReaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The responder ({@link QuoteApplication}) runs in a child JVM on the starter's runtime class path; this JVM runs
 * an application that only requests ({@link RequesterApplication}), over the same queue directories.
 */
class RequestReplyAcrossProcessesTest {
    @TempDir
    Path dir;

    @Test
    void shouldAnswerRequestsOfThisProcessFromAListenerInAnotherProcess() throws Exception {
        Process responder = startResponder();
        StringBuffer output = new StringBuffer();
        Thread.ofPlatform().daemon(true).start(() -> copy(responder, output));
        try {
            await().atMost(Duration.ofMinutes(2)).until(() -> output.indexOf("responder ready") >= 0
                    || !responder.isAlive());
            assertThat(responder.isAlive()).as("the responder started:%n%s", output).isTrue();

            try (ConfigurableApplicationContext requester = new SpringApplicationBuilder(RequesterApplication.class)
                    .web(WebApplicationType.NONE).properties(RequestReplyTestSupport.properties(dir)).run()) {
                RemoteQuotes quotes = requester.getBean(RemoteQuotes.class);
                QueueTemplate template = requester.getBean(QueueTemplate.class);

                List<CompletableFuture<Quote>> replies = new ArrayList<>();
                for (int i = 1; i <= 20; i++) {
                    replies.add(quotes.quote(new QuoteRequest("AAPL", i)));
                }
                String echoed = template.sendAndReceive("echo", "across processes", String.class)
                        .get(30, TimeUnit.SECONDS);
                CompletableFuture<Quote> failed = quotes.quote(new QuoteRequest("FAIL", 1));

                for (int i = 1; i <= 20; i++) {
                    assertThat(replies.get(i - 1).get(30, TimeUnit.SECONDS)).as(output.toString())
                            .isEqualTo(new Quote("AAPL", i, 100.0 + i, String.valueOf(responder.pid())));
                }
                assertThat(echoed).isEqualTo("ACROSS PROCESSES");
                assertThatThrownBy(() -> failed.get(30, TimeUnit.SECONDS)).cause()
                        .isInstanceOf(ReplyErrorException.class)
                        .hasMessageStartingWith("listener 'quoter' (Quoter.quote) failed on request ")
                        .hasMessageEndingWith(": java.lang.IllegalStateException: no price for FAIL");
                assertThat(requester.getBean(ReplyReaders.class).pendingCount()).isZero();
            }
        } finally {
            responder.destroy();
            if (!responder.waitFor(30, TimeUnit.SECONDS)) {
                responder.destroyForcibly();
            }
        }
    }

    private Process startResponder() throws IOException {
        String classPath = String.join(File.pathSeparator, Path.of("target/classes").toString(),
                Path.of("target/test-classes").toString(),
                Files.readString(Path.of("target/runtime-classpath.txt")).strip());
        String java = ProcessHandle.current().info().command().orElseThrow();
        // No --enable-native-access: the responder runs as a plain java -jar application would.
        List<String> command = new ArrayList<>(List.of(java,
                "-XX:TieredStopAtLevel=1", "-cp", classPath, QuoteApplication.class.getName(),
                "--spring.main.web-application-type=none"));
        Arrays.stream(RequestReplyTestSupport.properties(dir)).map(property -> "--" + property).forEach(command::add);
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static void copy(Process process, StringBuffer output) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.append(line).append('\n');
            }
        } catch (IOException ended) {
            // the process ended; what it wrote so far is in the output
        }
    }
}
