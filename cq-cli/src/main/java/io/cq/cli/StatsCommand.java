package io.cq.cli;

import io.cq.core.CorruptQueueException;
import io.cq.core.MappedQueue;
import io.cq.core.NamedTailerPosition;
import io.cq.core.QueueDiskUsage;
import io.cq.core.WriterProcess;
import io.cq.core.codec.ExcerptCodecs;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code cq stats}: what a queue holds, how far its named tailers are behind, and how large its excerpts are. */
@Command(name = "stats", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = "Summarise a queue: roll cycle, cycles and files with their sizes, first and last index, number "
                + "of excerpts, each named tailer with its next index, lag (excerpts behind the end) and holder, "
                + "the excerpt codecs, and a histogram of excerpt sizes in power-of-two ranges.")
final class StatsCommand implements Callable<Integer> {
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<dir>", description = "The queue directory.")
    Path directory;

    @Option(names = "--format", paramLabel = "text|json", defaultValue = "text",
            description = "text (default) or json.")
    Format format;

    @Option(names = "--sizes", paramLabel = "<n>|all", defaultValue = "100000",
            description = "Read the sizes of at most n excerpts for the histogram of excerpt sizes (default 100000): "
                    + "one at random from each run of excerpts when the queue holds more; all reads every excerpt, "
                    + "0 none.")
    String sizes;

    @Mixin
    KeyStoreOptions keys = new KeyStoreOptions();

    @Override
    public Integer call() {
        long sizesLimit = sizesLimit();
        JsonMapper json = JsonMapper.builder().build();
        ObjectNode stats = json.createObjectNode();
        CorruptQueueException damage = null;
        try (MappedQueue queue = Queues.openReadOnly(directory, keys)) {
            stats.put("path", queue.path().toAbsolutePath().toString());
            stats.put("rollCycle", queue.rollCycle().name());
            ObjectNode filesystem = stats.putObject("filesystem");
            filesystem.put("type", queue.filesystem().type());
            filesystem.put("locality", queue.filesystem().locality().name());
            filesystem.put("local", queue.filesystem().isLocal());
            ExcerptCodecs codecs = queue.settings().codecs();
            stats.put("codecs", codecs.describe());
            ObjectNode settings = stats.putObject("settings");
            queue.settings().describe().forEach(settings::put);
            ArrayNode files = stats.putArray("files");
            long bytes = 0;
            for (long cycle : queue.cycles()) {
                Path file = queue.path().resolve(queue.cycleCalendar().fileName(cycle) + Queues.CYCLE_FILE_SUFFIX);
                long size = sizeOf(file);
                bytes += size;
                files.addObject().put("cycle", cycle).put("file", file.getFileName().toString()).put("bytes", size);
            }
            stats.put("cycles", files.size());
            stats.put("bytes", bytes + sizeOf(queue.path().resolve(Queues.TABLE_STORE)));
            QueueDiskUsage disk = queue.diskUsage();
            stats.put("writtenBytes", disk.writtenBytes());
            if (disk.allocatedKnown()) {
                stats.put("allocatedBytes", disk.allocatedBytes());
            } else {
                stats.putNull("allocatedBytes");
            }
            ArrayNode writers = stats.putArray("writers");
            for (WriterProcess writer : queue.writerProcesses()) {
                ObjectNode node = writers.addObject().put("processSlot", writer.processSlot());
                if (writer.pid() > 0) {
                    node.put("pid", writer.pid()).put("host", writer.host());
                } else {
                    node.putNull("pid").putNull("host");
                }
                node.put("holdsWriteLock", writer.holdsWriteLock());
            }
            long first = queue.firstIndex();
            long last = queue.lastIndex();
            long end = last < 0 ? -1 : last + 1;
            putIndex(stats, "firstIndex", first);
            putIndex(stats, "lastIndex", last);
            long excerpts = first < 0 ? 0 : queue.countExcerpts(first, end);
            stats.put("excerpts", excerpts);
            ArrayNode tailers = stats.putArray("namedTailers");
            for (NamedTailerPosition tailer : queue.namedTailers()) {
                ObjectNode node = tailers.addObject().put("name", tailer.name());
                putIndex(node, "nextIndex", tailer.nextIndex());
                long from = tailer.nextIndex() < 0 ? first : tailer.nextIndex();
                node.put("lag", first < 0 || from < 0 ? 0 : queue.countExcerpts(Math.max(from, first), end));
                node.put("holder", tailer.held() ? tailer.holder() : null);
            }
            if (sizesLimit == 0) {
                stats.putNull("excerptSizes");
            } else if (codecs.encrypted() && codecs.keys() == null) {
                // Sizes are those of the excerpts, which only decrypting tells.
                stats.putNull("excerptSizes");
                stats.put("excerptSizesNotRead", "the queue is encrypted and no --key-store was given");
            } else {
                ExcerptSizeHistogram histogram = ExcerptSizeHistogram.read(queue, excerpts, sizesLimit);
                damage = histogram.damage();
                ExcerptSizeReport.put(stats.putObject("excerptSizes"), histogram);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(format == Format.json ? json.writerWithDefaultPrettyPrinter().writeValueAsString(stats)
                : text(stats));
        out.flush();
        if (damage != null) {
            // The figures are shown, damage and all; the exit code says the queue is damaged, as dump's does.
            throw damage;
        }
        return 0;
    }

    /** {@code --sizes}: a count of excerpts, 0 for none, or every excerpt. */
    private long sizesLimit() {
        if (sizes.equalsIgnoreCase("all")) {
            return Long.MAX_VALUE;
        }
        try {
            long limit = Long.parseLong(sizes);
            if (limit >= 0) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // reported below, with what is expected
        }
        throw new UserInputException("--sizes=" + sizes + ": expected a number of excerpts (0 for no histogram) or "
                + "all");
    }

    private static void putIndex(ObjectNode node, String field, long index) {
        if (index < 0) {
            node.putNull(field);
        } else {
            node.put(field, index);
            node.put(field + "Hex", Queues.hex(index));
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the size of " + file, e);
        }
    }

    private static String text(ObjectNode stats) {
        StringBuilder out = new StringBuilder();
        out.append("queue        ").append(stats.get("path").asString()).append('\n');
        out.append("roll cycle   ").append(stats.get("rollCycle").asString()).append('\n');
        out.append("codecs       ").append(stats.get("codecs").asString()).append('\n');
        JsonNode filesystem = stats.get("filesystem");
        out.append("file system  ").append(filesystem.get("type").asString()).append(" (")
                .append(filesystem.get("locality").asString().toLowerCase(Locale.ROOT).replace('_', ' '))
                .append(filesystem.get("local").asBoolean() ? ")"
                        : "; not suited to a queue: operations guide, \"File systems\")")
                .append('\n');
        // What this read-only opening runs with; block size and index spacing are those given to new cycle files.
        StringBuilder settings = new StringBuilder();
        stats.get("settings").properties().forEach(setting -> settings.append(settings.isEmpty() ? "" : ", ")
                .append(setting.getKey()).append('=').append(setting.getValue().asString()));
        out.append("settings     ").append(settings).append('\n');
        out.append("cycles       ").append(stats.get("cycles").asLong()).append(" files, ")
                .append(stats.get("bytes").asLong()).append(" bytes long (table store included)\n");
        out.append("disk         ").append(stats.get("writtenBytes").asLong()).append(" bytes written, ")
                .append(stats.get("allocatedBytes").isNull() ? "allocated unknown (needs native access)"
                        : stats.get("allocatedBytes").asLong() + " bytes allocated").append('\n');
        out.append("writers      ").append(writers(stats.get("writers"))).append('\n');
        out.append("first index  ").append(index(stats, "firstIndex")).append('\n');
        out.append("last index   ").append(index(stats, "lastIndex")).append('\n');
        out.append("excerpts     ").append(stats.get("excerpts").asLong()).append('\n');
        for (var file : stats.get("files")) {
            out.append("  ").append(file.get("file").asString()).append("  ").append(file.get("bytes").asLong())
                    .append(" bytes\n");
        }
        if (stats.get("namedTailers").isEmpty()) {
            out.append("named tailers: none\n");
        } else {
            out.append("named tailers:\n");
            for (var tailer : stats.get("namedTailers")) {
                out.append("  ").append(tailer.get("name").asString()).append("  next ")
                        .append(index((ObjectNode) tailer, "nextIndex"))
                        .append(", lag ").append(tailer.get("lag").asLong())
                        .append(tailer.get("holder").isNull() ? "" : ", held by " + tailer.get("holder").asString())
                        .append('\n');
            }
        }
        ExcerptSizeReport.appendText(out, stats.get("excerptSizes"), stats.has("excerptSizesNotRead")
                ? stats.get("excerptSizesNotRead").asString() : "--sizes 0");
        return out.toString().stripTrailing();
    }

    /** "none", or each writing process: "pid 4242 on host-a (holds the write lock), process slot 3". */
    private static String writers(JsonNode writers) {
        if (writers.isEmpty()) {
            return "none (no process has the queue open for writing)";
        }
        StringBuilder text = new StringBuilder();
        for (var writer : writers) {
            text.append(text.isEmpty() ? "" : ", ").append(writer.get("pid").isNull() ? "process slot "
                    + writer.get("processSlot").asInt() : "pid " + writer.get("pid").asLong() + " on "
                    + writer.get("host").asString());
            if (writer.get("holdsWriteLock").asBoolean()) {
                text.append(" (holds the write lock)");
            }
        }
        return text.toString();
    }

    private static String index(ObjectNode node, String field) {
        return node.get(field).isNull() ? "-" : node.get(field + "Hex").asString() + " (" + node.get(field).asLong()
                + ")";
    }
}
