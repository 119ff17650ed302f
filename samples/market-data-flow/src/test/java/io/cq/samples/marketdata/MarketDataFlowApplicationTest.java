package io.cq.samples.marketdata;

import io.cq.core.MappedQueue;
import io.cq.test.QueueProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample run as its main method runs it, in a directory of the test's ({@code market-data.directory}, the
 * sample's own property): afterwards, the remote copy must hold every quote the feed published, in order.
 */
class MarketDataFlowApplicationTest {
    @TempDir
    Path dir;

    @Test
    void shouldCarryEveryPublishedQuoteThroughKafkaToTheRemoteCopyAndStopByItself() throws InterruptedException {
        MarketDataFlowApplication.Outcome outcome = MarketDataFlowApplication.run(
                "--market-data.duration=1s", "--market-data.rate=200", "--market-data.directory=" + dir);

        assertThat(outcome.published()).isPositive();
        assertThat(outcome.keptRemotely()).isEqualTo(outcome.published());
        List<Quote> published = quotesIn(dir.resolve("quotes"));
        assertThat(published).extracting(Quote::sequence)
                .isEqualTo(LongStream.rangeClosed(1, outcome.published()).boxed().toList());
        assertThat(quotesIn(dir.resolve("quotes-remote"))).isEqualTo(published);
    }

    /** What the run left in a queue, read after the application closed it. */
    private static List<Quote> quotesIn(Path queueDirectory) {
        try (MappedQueue queue = MappedQueue.builder(queueDirectory).readOnly(true).build()) {
            return QueueProbe.of(queue).objects(Quote.class);
        }
    }
}
