package io.cq.samples.marketdata;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/** A simulated market data feed: a random walk of a few symbols' prices. Called by one poller thread. */
final class QuoteFeed {
    private static final List<String> SYMBOLS = List.of("AAPL", "MSFT", "NVDA", "AMZN", "GOOG");

    private final double[] mids = {189.25, 420.50, 131.10, 182.75, 171.40};
    private final AtomicLong published = new AtomicLong();

    Quote next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int i = random.nextInt(SYMBOLS.size());
        mids[i] = Math.max(1, mids[i] + random.nextGaussian() * 0.02);
        double halfSpread = 0.01 + random.nextDouble() * 0.02;
        long sequence = published.incrementAndGet();
        return new Quote(SYMBOLS.get(i), mids[i] - halfSpread, mids[i] + halfSpread, sequence, System.nanoTime());
    }

    long published() {
        return published.get();
    }
}
