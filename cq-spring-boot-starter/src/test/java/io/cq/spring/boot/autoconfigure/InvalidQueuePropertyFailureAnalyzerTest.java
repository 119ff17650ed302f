package io.cq.spring.boot.autoconfigure;

import io.cq.core.MappedQueue;
import io.cq.core.RollCycle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Each wrong value stops start-up with an analysis naming the property and the fix. */
class InvalidQueuePropertyFailureAnalyzerTest {
    @TempDir
    Path dir;

    private FailureAnalysis startupFailure(String... properties) {
        FailureAnalysis[] analysis = new FailureAnalysis[1];
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(CqAutoConfiguration.class, CqListenerAutoConfiguration.class))
                .withPropertyValues("cq.base-path=" + dir)
                .withPropertyValues(properties)
                .run(context -> {
                    assertThat(context).hasFailed();
                    analysis[0] = StartupFailures.analyze(context.getStartupFailure());
                });
        return analysis[0];
    }

    @Test
    void shouldNameAnUnknownRollCycleAndListTheValidOnes() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.roll-cycle=fortnightly");
        assertThat(analysis.getDescription()).contains("cq.queues.orders.roll-cycle").contains("fortnightly");
        assertThat(analysis.getAction()).contains("HOURLY").contains("DAILY");
    }

    @Test
    void shouldNameABlockSizeThatIsNotAMultipleOfThePageSize() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.block-size=100000B");
        assertThat(analysis.getDescription()).isEqualTo("The cq property 'cq.queues.orders.block-size' has the value "
                + "'100000B': a block size must be a multiple of 4096 bytes and at least 64KB");
        assertThat(analysis.getAction()).isEqualTo("Set cq.queues.orders.block-size to a multiple of 4KB, e.g. 100KB.");
    }

    @Test
    void shouldNameABlockSizeTooSmallForTheRollCycle() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.block-size=256KB");
        assertThat(analysis.getDescription()).startsWith("The cq property 'cq.queues.orders.block-size' has the value "
                + "'262144': blockSize=262144 must be a multiple of 4096 from 266240 (for rollCycle=DAILY)");
        assertThat(analysis.getAction()).isEqualTo("Change cq.queues.orders.block-size as the message says.");
    }

    @Test
    void shouldNameAnIndexSpacingThatIsNotAPowerOfTwo() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.index-spacing=100");
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.index-spacing' has the value '100'")
                .contains("power of two");
        assertThat(analysis.getAction()).isEqualTo("Set cq.queues.orders.index-spacing to a power of two, e.g. 64.");
    }

    @Test
    void shouldNameAPathThatIsAFile() throws Exception {
        Path file = Files.writeString(dir.resolve("orders"), "not a queue");
        FailureAnalysis analysis = startupFailure("cq.queues.orders.durability=page-cache");
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.path' has the value '" + file + "'")
                .contains("it exists and is not a directory");
        assertThat(analysis.getAction()).contains("Point cq.queues.orders.path (or cq.base-path) at a directory");
    }

    @Test
    void shouldNameAPathThatCannotBeCreated() throws Exception {
        Path file = Files.writeString(dir.resolve("plain-file"), "x");
        FailureAnalysis analysis = startupFailure("cq.queues.orders.path=" + file.resolve("orders"));
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.path'")
                .contains("it cannot be created: " + file + " is not a directory");
    }

    @Test
    void shouldNameARollCycleThatContradictsTheExistingQueue() {
        MappedQueue.builder(dir.resolve("orders")).rollCycle(RollCycle.HOURLY).build().close();
        FailureAnalysis analysis = startupFailure("cq.queues.orders.roll-cycle=daily");
        assertThat(analysis.getDescription()).contains("'cq.queues.orders.roll-cycle' has the value 'DAILY'")
                .contains("was created with roll cycle HOURLY");
        assertThat(analysis.getAction()).startsWith("Set cq.queues.orders.roll-cycle=HOURLY or remove the property");
    }

    @Test
    void shouldNameAMissingDeadLetterQueue() {
        FailureAnalysis analysis = startupFailure("cq.queues.orders.durability=page-cache",
                "cq.listener.recoverer=dead-letter", "cq.listener.dead-letter-queue=orders-dlq");
        assertThat(analysis.getDescription()).contains("'cq.listener.dead-letter-queue' has the value 'orders-dlq'")
                .contains("the queues are [orders]");
        assertThat(analysis.getAction()).contains("cq.queues.orders-dlq.path");
    }

    @Test
    void shouldNameAnUnknownIdleStrategyWithTheValidOnes() {
        FailureAnalysis analysis = startupFailure("cq.listener.idle.strategy=sleepy");
        assertThat(analysis.getDescription()).contains("cq.listener.idle.strategy").contains("sleepy");
        assertThat(analysis.getAction()).containsIgnoringCase("backoff").containsIgnoringCase("busy_spin");
    }

    @Test
    void shouldNameIdleParksThatCannotWork() {
        FailureAnalysis analysis = startupFailure("cq.listener.idle.min-park=10ms", "cq.listener.idle.max-park=1ms");
        assertThat(analysis.getDescription()).contains("'cq.listener.idle.max-park' has the value")
                .contains("maxPark must be at least minPark");
        assertThat(analysis.getAction()).contains("cq.listener.idle.max-park to at least cq.listener.idle.min-park");
    }

    @Test
    void shouldNameARetryPolicyThatCannotWork() {
        FailureAnalysis analysis = startupFailure("cq.listener.retry.max-attempts=0");
        assertThat(analysis.getDescription()).contains("'cq.listener.retry.max-attempts' has the value '0'");
        assertThat(analysis.getAction()).contains("cq.listener.retry.max-attempts to 1 or more");
    }
}
