package io.cq.core.internal.message;

import java.util.Locale;
import java.util.Random;

/**
 * Records of every kind of component the message layer reads and writes without Jackson, and random instances of
 * them with the values at the edges of each CBOR encoding, for tests that hold cq's own codec to Jackson's.
 */
final class RandomRecords {
    private RandomRecords() {
    }

    public enum Side { BUY, SELL }

    /** Written and read by its {@code toString()}, Jackson 3's default for enums. */
    public enum Level {
        LOW, HIGH;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public record Inner(String name, long value, Inner next) {
    }

    public record Everything(boolean z, byte b, short s, int i, long l, float f, double d, Boolean boxedZ, Byte boxedB,
                             Short boxedS, Integer boxedI, Long boxedL, Float boxedF, Double boxedD, String text,
                             Side side, Level level, Inner inner) {
    }

    /** Component names a bean introspector could read as getters. */
    public record OddNames(boolean isActive, String getName, int url, int aB, long x) {
    }

    static Everything everything(Random random) {
        boolean nulls = random.nextInt(4) == 0;
        return new Everything(random.nextBoolean(), (byte) integer(random), (short) integer(random),
                (int) integer(random), integer(random), floating(random), doubleValue(random),
                nulls ? null : random.nextBoolean(), nulls ? null : (byte) integer(random),
                nulls ? null : (short) integer(random), nulls ? null : (int) integer(random),
                nulls ? null : integer(random), nulls ? null : floating(random), nulls ? null : doubleValue(random),
                nulls ? null : text(random), nulls ? null : Side.values()[random.nextInt(2)],
                nulls ? null : Level.values()[random.nextInt(2)], inner(random, random.nextInt(4)));
    }

    static Inner inner(Random random, int depth) {
        return depth == 0 ? null : new Inner(text(random), integer(random), inner(random, depth - 1));
    }

    static long integer(Random random) {
        long[] edges = {0, -1, 1, 23, 24, -24, -25, 255, 256, 65_535, 65_536, Integer.MAX_VALUE, Integer.MIN_VALUE,
            Long.MAX_VALUE, Long.MIN_VALUE, Byte.MIN_VALUE, Short.MAX_VALUE};
        return random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextLong() >> random.nextInt(64);
    }

    static float floating(Random random) {
        float[] edges = {0f, -0f, Float.NaN, Float.POSITIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE, 1.5f};
        return random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextFloat() * 1e6f - 5e5f;
    }

    static double doubleValue(Random random) {
        double[] edges = {0, -0.0, Double.NaN, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE, 189.25};
        return random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextGaussian() * 1e9;
    }

    static String text(Random random) {
        String[] pieces = {"", "a", "AAPL", "o-1023", "é", "€", "\uD834\uDD1E", "\u0000", "ü", " ", "\u07FF", "\uFFFD"};
        StringBuilder text = new StringBuilder();
        for (int n = random.nextInt(5); n > 0; n--) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        if (random.nextInt(20) == 0) {
            text.append("x".repeat(300)); // a two-byte length
        }
        return text.toString();
    }
}
