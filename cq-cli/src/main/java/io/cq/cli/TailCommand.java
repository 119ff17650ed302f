package io.cq.cli;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.MissingKeyException;
import io.cq.core.ReadContext;
import io.cq.core.TailerDirection;
import io.cq.core.idle.IdleStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;

/** {@code cq tail}: excerpts in order, from a chosen start, optionally following the end. */
@Command(name = "tail", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = "Print a queue's excerpts in order, from the start, an index or the last few, and with -f keep "
                + "printing new ones as they are appended. Stop following with Ctrl-C.")
final class TailCommand implements Callable<Integer> {
    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<dir>", description = "The queue directory.")
    Path directory;

    @Option(names = {"-f", "--follow"}, description = "Keep waiting for new excerpts at the end.")
    boolean follow;

    @Option(names = {"-n", "--from"}, paramLabel = "<index>",
            description = "Start at this index (decimal, or hex with 0x as shown by -s and dump).")
    String fromIndex;

    @Option(names = {"-m", "--last"}, paramLabel = "<n>", description = "Start with the last n excerpts.")
    Long last;

    @Option(names = {"-i", "--include"}, paramLabel = "<regex>",
            description = "Show only excerpts whose rendering contains a match (repeatable: any may match).")
    List<Pattern> includes = new ArrayList<>();

    @Option(names = {"-e", "--exclude"}, paramLabel = "<regex>",
            description = "Hide excerpts whose rendering contains a match (repeatable).")
    List<Pattern> excludes = new ArrayList<>();

    @Option(names = {"-s", "--show-index"}, description = "Prefix each excerpt with its index in hex.")
    boolean showIndex;

    @Option(names = {"-l", "--one-line"}, description = "Print each excerpt on one line.")
    boolean oneLine;

    @Option(names = "--format", paramLabel = "text|json", defaultValue = "text",
            description = "text (default), or json: one JSON object per line with index and content.")
    Format format;

    @Option(names = "--limit", paramLabel = "<n>",
            description = "Stop after printing n excerpts (also when following).")
    Long limit;

    @Option(names = {"-r", "--interface"}, split = ",", paramLabel = "<interface>",
            description = "Decode method calls with these interfaces (fully qualified names, comma-separated): "
                    + "arguments "
                    + "are read as the interface's own types, self-written ones (BytesMessage) included. Without -r, "
                    + "messages show as JSON decoded without their types.")
    List<String> interfaces = new ArrayList<>();

    @Option(names = {"-cp", "--classpath"}, paramLabel = "<path>",
            description = "JARs and class directories holding the -r interfaces and their argument types.")
    String classPath;

    @Mixin
    KeyStoreOptions keys = new KeyStoreOptions();

    /** Lines between two checks that the output is still read (a mask: one check per 256 lines). */
    private static final long CHECK_OUTPUT_EVERY = 255;

    @Override
    public Integer call() {
        try {
            return tail();
        } catch (MissingKeyException e) {
            throw keys.explain(e, directory);
        }
    }

    private int tail() {
        if (fromIndex != null && last != null) {
            throw new UserInputException("-n and -m both choose the start: give one of them");
        }
        if (limit != null && limit < 0) {
            throw new UserInputException("--limit takes a count of 0 or more, not " + limit);
        }
        PrintWriter out = spec.commandLine().getOut();
        IdleStrategy idle = IdleStrategy.backoff();
        long printed = 0;
        try (MappedQueue queue = Queues.openReadOnly(directory, keys); ExcerptTailer tailer = queue.createTailer()) {
            position(queue, tailer);
            ExcerptLines lines = interfaces.isEmpty()
                    ? new ExcerptLines.Rendered(tailer, format == Format.json, oneLine)
                    : new ExcerptLines.Typed(tailer, Interfaces.load(interfaces, classPath), format == Format.json);
            while (limit == null || printed < limit) {
                ExcerptLines.Line line = lines.next();
                if (line != null) {
                    // -i and -e match what the excerpt says, not the index -s puts before it.
                    if (shown(line.text())) {
                        out.println(format == Format.text && showIndex ? Queues.hex(line.index()) + " " + line.text()
                                : line.text());
                        printed++;
                        // A PrintWriter keeps a failed write to itself: without asking, a reader that went away
                        // (cq tail | head) would leave this rendering the whole queue, or following it for ever.
                        if ((printed & CHECK_OUTPUT_EVERY) == 0 && Queues.outputClosed(out)) {
                            return 0;
                        }
                    }
                    idle.reset();
                    continue;
                }
                if (Queues.outputClosed(out) || !follow || Thread.currentThread().isInterrupted()) {
                    break;
                }
                idle.idle();
            }
        }
        out.flush();
        return 0;
    }

    private void position(MappedQueue queue, ExcerptTailer tailer) {
        if (fromIndex != null) {
            long index = Queues.parseIndex(fromIndex);
            if (!tailer.moveToIndex(index)) {
                long first = queue.firstIndex();
                throw new UserInputException("the queue holds no excerpt with index " + Queues.hex(index)
                        + (first < 0 ? ": it is empty" : "; it holds " + Queues.hex(first) + " to "
                        + Queues.hex(queue.lastIndex())));
            }
        } else if (last != null) {
            if (last < 0) {
                throw new UserInputException("-m takes a count of 0 or more, not " + last);
            }
            long start = -1;
            tailer.direction(TailerDirection.BACKWARD).toEnd();
            for (long i = 0; i < last; i++) {
                try (ReadContext context = tailer.readingDocument()) {
                    if (!context.isPresent()) {
                        break;
                    }
                    start = context.index();
                }
            }
            tailer.direction(TailerDirection.FORWARD);
            if (start < 0) {
                tailer.toEnd();
            } else {
                tailer.moveToIndex(start);
            }
        } else {
            tailer.toStart();
        }
    }

    private boolean shown(String rendering) {
        if (!includes.isEmpty() && includes.stream().noneMatch(pattern -> pattern.matcher(rendering).find())) {
            return false;
        }
        return excludes.stream().noneMatch(pattern -> pattern.matcher(rendering).find());
    }
}
