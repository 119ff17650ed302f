package io.cq.integration.inbound;

import io.cq.core.MappedQueue;
import io.cq.integration.Flows;
import io.cq.integration.dsl.Cq;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHandler;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class AtLeastOnceAfterCrashTest {
    @TempDir
    Path dir;

    @Test
    void shouldDeliverAgainTheExcerptWhoseFlowWasRunningWhenTheProcessDied() throws Exception {
        long b;
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            queue.acquireAppender().writeText("a");
            b = queue.acquireAppender().writeText("b");
            queue.acquireAppender().writeText("c");
        }

        Process child = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"),
                CrashingFlowMain.class.getName(), dir.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).as("died inside the flow handling b").isEqualTo(CrashingFlowMain.EXIT_IN_FLOW);

        List<Message<?>> received = new CopyOnWriteArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build();
             AbstractApplicationContext context = Flows.run(
                     IntegrationFlow.from(Cq.inboundAdapter(queue).id("crashy")).handle((MessageHandler) received::add)
                     .get())) {
            await().until(() -> received.size() == 2);
            assertThat(received).extracting(message -> (Object) message.getPayload()).containsExactly("b", "c");
            assertThat(received.getFirst().getHeaders().get("cq_index")).isEqualTo(b);
        }
    }
}
