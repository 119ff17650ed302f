package io.cq.samples.marketdata;

import io.cq.integration.QueueAdapterInfo;
import io.cq.integration.QueueAdapterRegistry;
import io.cq.integration.bridge.IndexDeduplicator;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.Lifecycle;
import org.springframework.context.annotation.Import;
import org.springframework.integration.config.EnableIntegration;

import java.util.concurrent.TimeUnit;

/**
 * Market data in -> cq (local consumers, microseconds) -> Kafka (remote consumers). Publishes for
 * {@code market-data.duration}, lets the consumers catch up, prints what each adapter did and stops; Ctrl-C
 * stops it earlier through the same orderly shutdown (adapters finish the excerpt in hand, tailers commit).
 *
 * <pre>./mvnw -q -pl samples/market-data-flow -am compile exec:exec</pre>
 */
@EnableAutoConfiguration
@EnableIntegration
@EnableConfigurationProperties(MarketDataProperties.class)
@Import(MarketDataFlows.class)
public class MarketDataFlowApplication {

    public static void main(String[] args) throws InterruptedException {
        run(args);
    }

    /** What a run did: quotes published and quotes the remote consumer kept (0 and 0 when interrupted). */
    record Outcome(long published, long keptRemotely) {
    }

    static Outcome run(String... args) throws InterruptedException {
        ConfigurableApplicationContext context = SpringApplication.run(MarketDataFlowApplication.class, args);
        context.registerShutdownHook();
        MarketDataProperties properties = context.getBean(MarketDataProperties.class);
        KafkaConnection kafka = context.getBean(KafkaConnection.class);
        System.out.printf("market data flow: %d quotes/s for %s into %s; Kafka at %s%s%n", properties.rate(),
                properties.duration(), properties.directory().toAbsolutePath(), kafka.bootstrapServers(),
                kafka.embedded() ? " (embedded broker)" : "");

        long end = System.nanoTime() + properties.duration().toNanos();
        while (context.isActive() && System.nanoTime() < end) {
            TimeUnit.MILLISECONDS.sleep(100);
        }
        if (!context.isActive()) {
            return new Outcome(0, 0);                // Ctrl-C: the shutdown hook closed everything
        }
        context.getBean("quote-feed", Lifecycle.class).stop();
        QueueAdapterRegistry adapters = context.getBean(QueueAdapterRegistry.class);
        awaitCaughtUp(adapters, context);
        report(context, adapters);
        Outcome outcome = new Outcome(context.getBean(QuoteFeed.class).published(),
                adapters.adapter("remote-writer").map(QueueAdapterInfo::processedCount).orElse(0L));
        context.close();
        return outcome;
    }

    /** Up to 15 s for the bridge and the remote consumer to take everything published. */
    private static void awaitCaughtUp(QueueAdapterRegistry adapters, ConfigurableApplicationContext context)
            throws InterruptedException {
        QuoteFeed feed = context.getBean(QuoteFeed.class);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline) {
            long bridgeLag = adapters.adapter("quotes-to-kafka").map(QueueAdapterInfo::lag).orElse(0L);
            long remote = adapters.adapter("remote-writer").map(QueueAdapterInfo::processedCount).orElse(0L);
            if (bridgeLag == 0 && remote >= feed.published()) {
                return;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    private static void report(ConfigurableApplicationContext context, QueueAdapterRegistry adapters) {
        System.out.printf("published %,d quotes; local consumer latency (feed to handler, %,d quotes after the first "
                + MarketDataFlows.WARM_UP_QUOTES + "): %s%n",
                context.getBean(QuoteFeed.class).published(), context.getBean(LatencyRecorder.class).count(),
                context.getBean(LatencyRecorder.class).summary());
        System.out.printf("%-16s %-24s %-14s %10s %8s %6s%n", "adapter", "kind", "queue", "processed", "failed", "lag");
        for (QueueAdapterInfo adapter : adapters.adapters()) {
            System.out.printf("%-16s %-24s %-14s %,10d %,8d %,6d%n", adapter.adapterId(), adapter.kind(),
                    adapter.queueName(), adapter.processedCount(), adapter.failedCount(), adapter.lag());
        }
        System.out.printf("remote duplicates dropped by cq index: %d%n",
                context.getBean(IndexDeduplicator.class).duplicatesDropped());
    }
}
