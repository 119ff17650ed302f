package io.cq.cli;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The histogram of excerpt sizes in {@code cq stats}: as JSON fields, and as text rendered from those fields (as the
 * rest of the text output is), one line per range with its count and a bar.
 */
final class ExcerptSizeReport {
    /** The longest bar, in characters: the range holding the most excerpts. */
    static final int BAR_WIDTH = 40;

    private ExcerptSizeReport() {
    }

    static void put(ObjectNode node, ExcerptSizeHistogram histogram) {
        node.put("read", histogram.read());
        node.put("excerpts", histogram.excerpts());
        node.put("every", histogram.every());
        node.put("minBytes", histogram.minBytes());
        node.put("maxBytes", histogram.maxBytes());
        node.put("totalBytes", histogram.totalBytes());
        ArrayNode ranges = node.putArray("buckets");
        for (int r = histogram.firstRange(); r <= histogram.lastRange(); r++) {
            ranges.addObject().put("fromBytes", ExcerptSizeHistogram.fromBytes(r))
                    .put("toBytes", ExcerptSizeHistogram.toBytes(r)).put("count", histogram.count(r));
        }
        if (histogram.damage() == null) {
            node.putNull("damage");
        } else {
            node.putObject("damage").put("file", histogram.damage().file().toString())
                    .put("position", histogram.damage().position()).put("problem", histogram.damage().getMessage());
        }
    }

    /** @param whyNotRead why there is no histogram, when {@code sizes} is null */
    static void appendText(StringBuilder out, JsonNode sizes, String whyNotRead) {
        out.append("excerpt sizes  ");
        if (sizes.isNull()) {
            out.append("not read (").append(whyNotRead).append(")\n");
            return;
        }
        long read = sizes.get("read").asLong();
        long excerpts = sizes.get("excerpts").asLong();
        long every = sizes.get("every").asLong();
        out.append(read).append(" of ").append(excerpts).append(" excerpts read");
        if (every > 1) {
            out.append(" (one at random in each ").append(every).append("; --sizes all reads every one)");
        }
        if (read > 0) {
            out.append(String.format(Locale.ROOT, ": %d to %d bytes, %.1f on average", sizes.get("minBytes").asLong(),
                    sizes.get("maxBytes").asLong(), (double) sizes.get("totalBytes").asLong() / read));
        }
        out.append('\n');
        JsonNode damage = sizes.get("damage");
        if (!damage.isNull()) {
            out.append("  stopped by damage in ").append(damage.get("file").asString()).append(" at ")
                    .append(damage.get("position").asLong()).append(" (cq verify lists the damage)\n");
        }
        appendBars(out, sizes.get("buckets"));
    }

    private static void appendBars(StringBuilder out, JsonNode ranges) {
        List<String> labels = new ArrayList<>();
        long largest = 0;
        for (JsonNode range : ranges) {
            labels.add(range.get("fromBytes").asLong() + "-" + range.get("toBytes").asLong() + " B");
            largest = Math.max(largest, range.get("count").asLong());
        }
        int labelWidth = labels.stream().mapToInt(String::length).max().orElse(0);
        int countWidth = Long.toString(largest).length();
        int i = 0;
        for (JsonNode range : ranges) {
            long count = range.get("count").asLong();
            // Every range that holds an excerpt shows at least one mark, however many the largest holds.
            int bar = count == 0 ? 0 : (int) Math.max(1, Math.round((double) count * BAR_WIDTH / largest));
            String line = "  " + pad(labels.get(i++), labelWidth, false) + "  "
                    + pad(Long.toString(count), countWidth, true) + "  " + "#".repeat(bar);
            out.append(line.stripTrailing()).append('\n');
        }
    }

    private static String pad(String text, int width, boolean right) {
        String spaces = " ".repeat(width - text.length());
        return right ? spaces + text : text + spaces;
    }
}
