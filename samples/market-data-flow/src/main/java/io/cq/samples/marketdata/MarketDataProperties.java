package io.cq.samples.marketdata;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The sample's settings ({@code application.properties}; environment variables such as
 * {@code MARKET_DATA_DURATION=30s} override them).
 *
 * @param duration  how long the feed publishes before the sample reports and stops
 * @param rate      quotes per second
 * @param directory where the queues live
 * @param topic     the Kafka topic the bridge publishes to
 * @param busySpin  whether the local consumer spins on a core while waiting (microseconds, one core busy) or
 *                  backs off to parks of up to 1 ms (the default, right for machines with few cores)
 */
@ConfigurationProperties("market-data")
record MarketDataProperties(Duration duration, int rate, Path directory, String topic, boolean busySpin) {
}
