package io.cq.samples.marketdata;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class MarketDataFlowApplicationTest {
    @TempDir
    Path dir;

    @Test
    void shouldCarryEveryPublishedQuoteThroughKafkaToTheRemoteCopyAndStopByItself() throws InterruptedException {
        MarketDataFlowApplication.Outcome outcome = MarketDataFlowApplication.run(
                "--market-data.duration=2s", "--market-data.rate=200", "--market-data.directory=" + dir);

        assertThat(outcome.published()).isPositive();
        assertThat(outcome.keptRemotely()).isEqualTo(outcome.published());
        assertThat(Files.isDirectory(dir.resolve("quotes"))).isTrue();
        assertThat(Files.isDirectory(dir.resolve("quotes-remote"))).isTrue();
    }
}
