package io.cq.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The payloads of the codec benchmarks: JSON-like text, an order event with field names, numbers, a symbol, an
 * account and its fills, different in every message (what compression meets in a journal of JSON messages), and
 * random bytes (what it cannot shrink). Both are a function of a message's number and its size, so every
 * implementation gets the same bytes.
 *
 * <p>Drivers append an 8-byte value and then the rest of a payload: {@link #head} gives the value that makes the
 * excerpt the payload's bytes exactly (both libraries write longs little-endian).
 */
public final class Payloads {
    private static final String[] SYMBOLS = {"AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META", "TSLA", "BRK.B",
        "JPM", "V", "XOM", "UNH", "JNJ", "PG", "MA", "HD", "COST", "ABBV", "KO", "PEP"};
    private static final String[] VENUES = {"XNAS", "XNYS", "ARCX", "BATS", "IEXG", "EDGX"};
    private static final String[] TIFS = {"DAY", "IOC", "GTC"};
    private static final String[] STRATEGIES = {"VWAP", "TWAP", "POV", "ICEBERG", "DMA"};
    private static final String[] DESKS = {"EQ-US-CASH", "EQ-US-PROG", "EQ-ETF", "EQ-HT"};
    private static final String[] TRADERS = {"jsmith", "mgarcia", "wchen", "akumar", "lrossi", "tnguyen"};
    private static final String[] WORDS = {"client", "requested", "partial", "fill", "at", "limit", "price", "do",
        "not", "exceed", "participation", "of", "volume", "release", "remainder", "after", "close", "auction",
        "per", "instruction", "from", "portfolio", "manager", "rebalance", "order", "desk"};
    private static final String OPEN = "{";
    private static final String CLOSE = "}";
    private static final String NOTE = ",\"note\":\"";

    private Payloads() {
    }

    /** Payload {@code number} of {@code size} bytes (at least 16): an order as JSON text, exactly that long. */
    public static byte[] order(long number, int size) {
        SplittableRandom random = new SplittableRandom(number * 0x9E3779B97F4A7C15L + size);
        long id = 1_000_000 + number;
        String symbol = SYMBOLS[random.nextInt(SYMBOLS.length)];
        String venue = VENUES[random.nextInt(VENUES.length)];
        long micros = 29_700_000_000L + number * 37 + random.nextInt(1_000);
        double price = 20 + random.nextInt(90_000) / 100.0;
        List<String> members = new ArrayList<>(List.of(
                "\"id\":" + id,
                "\"symbol\":\"" + symbol + "\"",
                "\"qty\":" + 100 * (1 + random.nextInt(50)),
                String.format(Locale.ROOT, "\"price\":%.2f", price),
                "\"side\":\"" + (random.nextBoolean() ? "BUY" : "SELL") + "\"",
                String.format(Locale.ROOT, "\"account\":\"ACC-%04d\"", random.nextInt(50) * 37 % 10_000),
                "\"type\":\"" + (random.nextInt(4) == 0 ? "MARKET" : "LIMIT") + "\"",
                "\"tif\":\"" + TIFS[random.nextInt(TIFS.length)] + "\"",
                "\"venue\":\"" + venue + "\"",
                "\"clOrdId\":\"C-20261207-" + id + "\"",
                "\"ts\":\"" + timestamp(micros) + "\"",
                "\"currency\":\"USD\"",
                "\"trader\":\"" + TRADERS[random.nextInt(TRADERS.length)] + "\"",
                "\"desk\":\"" + DESKS[random.nextInt(DESKS.length)] + "\"",
                "\"strategy\":\"" + STRATEGIES[random.nextInt(STRATEGIES.length)] + "\""));
        StringBuilder text = new StringBuilder(size).append(OPEN);
        for (String member : members) {
            add(text, member, size);
        }
        StringBuilder fills = new StringBuilder();
        for (int fill = 0; ; fill++) {
            String next = (fill == 0 ? "" : ",") + String.format(Locale.ROOT,
                    "{\"execId\":\"E-%d-%d\",\"qty\":%d,\"price\":%.2f,\"venue\":\"%s\",\"ts\":\"%s\"}", id, fill,
                    100 * (1 + random.nextInt(10)), price + (random.nextInt(21) - 10) / 100.0,
                    VENUES[random.nextInt(VENUES.length)], timestamp(micros + 150 * (fill + 1L)));
            if (text.length() + ",\"fills\":[".length() + fills.length() + next.length() + "]".length()
                    + CLOSE.length() > size) {
                break;
            }
            fills.append(next);
        }
        if (!fills.isEmpty()) {
            add(text, "\"fills\":[" + fills + "]", size);
        }
        int room = size - text.length() - CLOSE.length();
        if (room > NOTE.length() + 1) {
            StringBuilder note = new StringBuilder();
            while (note.length() < room - NOTE.length() - 1) {
                note.append(note.isEmpty() ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
            }
            text.append(NOTE).append(note, 0, room - NOTE.length() - 1).append('"');
        }
        text.append(" ".repeat(size - text.length() - CLOSE.length())).append(CLOSE);
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Payload {@code number} of {@code size} random bytes. */
    public static byte[] random(long number, int size) {
        byte[] bytes = new byte[size];
        new SplittableRandom(number * 0x9E3779B97F4A7C15L + size).nextBytes(bytes);
        return bytes;
    }

    /** {@code count} JSON-like orders of {@code size} bytes, numbers 0 to count - 1. */
    public static byte[][] orders(int count, int size) {
        byte[][] payloads = new byte[count][];
        for (int i = 0; i < count; i++) {
            payloads[i] = order(i, size);
        }
        return payloads;
    }

    /** The payload's first 8 bytes as the little-endian long a driver writes first. */
    public static long head(byte[] payload) {
        long value = 0;
        for (int i = 7; i >= 0; i--) {
            value = value << 8 | payload[i] & 0xFF;
        }
        return value;
    }

    /** How the report names the JSON-like payload, with an example. */
    public static String describe(int size) {
        return "JSON-like text, an order event different in every message (field names, an id, a symbol, an account, "
                + "numbers, a timestamp and, in larger ones, fills and a note), e.g. at " + size + " B: `"
                + new String(order(0, size), StandardCharsets.US_ASCII) + "`";
    }

    private static void add(StringBuilder text, String member, int size) {
        String piece = (text.length() == OPEN.length() ? "" : ",") + member;
        if (text.length() + piece.length() + CLOSE.length() <= size) {
            text.append(piece);
        }
    }

    private static String timestamp(long micros) {
        long seconds = micros / 1_000_000;
        return String.format(Locale.ROOT, "2026-12-07T%02d:%02d:%02d.%06dZ", seconds / 3600 % 24, seconds / 60 % 60,
                seconds % 60, micros % 1_000_000);
    }
}
