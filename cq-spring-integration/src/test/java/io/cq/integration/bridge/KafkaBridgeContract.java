package io.cq.integration.bridge;

import io.cq.integration.CqHeaders;
import io.cq.integration.Trade;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.stream.LongStream;

import static io.cq.integration.bridge.KafkaBridgeScenario.REDELIVERED;
import static io.cq.integration.bridge.KafkaBridgeScenario.TRADES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the bridge of docs/spring-integration.md promises, held to one run of {@link KafkaBridgeScenario} per class:
 * the trades come back into the copy in order, with the source's index and queue as headers, and a redelivery of
 * the source is dropped by the {@link IndexDeduplicator}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class KafkaBridgeContract {
    /** A temporary directory for the class, made for its {@code @BeforeAll}. */
    Path dir;

    private KafkaBridgeScenario.Outcome outcome;

    /** Runs the scenario, once for the class's tests. */
    abstract KafkaBridgeScenario.Outcome runScenario();

    @BeforeAll
    void runTheScenarioOnce(@TempDir Path dir) {
        this.dir = dir;
        outcome = runScenario();
    }

    @Test
    void shouldCopyEveryTradeInOrder() {
        assertThat(outcome.copied()).extracting(Trade::quantity)
                .containsExactlyElementsOf(LongStream.range(0, TRADES).boxed().toList());
    }

    @Test
    void shouldSendTheSourceIndexOfEachExcerptAsAHeader() {
        assertThat(outcome.arrived()).extracting(message -> message.getHeaders().get(CqHeaders.INDEX))
                .containsExactlyElementsOf(outcome.sourceIndexes());
    }

    @Test
    void shouldSendTheSourceQueueAsAHeader() {
        assertThat(outcome.arrived()).extracting(message -> message.getHeaders().get(CqHeaders.QUEUE))
                .containsOnly("trades");
    }

    @Test
    void shouldDropRedeliveredDuplicatesByIndex() {
        assertThat(outcome.arrivedInAll()).as("the redelivered excerpts did arrive").isEqualTo(TRADES + REDELIVERED);
        assertThat(outcome.copiedInAll()).isEqualTo(TRADES);
    }

    @Test
    void shouldRememberTheHighestIndexCopiedOfEachSourceQueue() {
        assertThat(outcome.highestIndex()).isEqualTo(outcome.sourceIndexes().getLast());
    }
}
