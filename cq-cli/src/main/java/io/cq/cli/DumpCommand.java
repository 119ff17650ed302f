package io.cq.cli;

import io.cq.core.CycleCalendar;
import io.cq.core.MappedQueue;
import io.cq.core.MissingKeyException;
import io.cq.core.message.ExcerptRendering;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code cq dump}: the table store, then every cycle file (or one) record by record. */
@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = "Show a whole queue, or one cycle file, as text: the queue's roll cycle and named tailers, then "
                + "each file's header and every record (excerpts, index blocks, end-of-cycle marks) with its index and "
                + "byte position.")
final class DumpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<dir|file>", description = "A queue directory, or one of its .cq4 cycle files.")
    Path target;

    @Mixin
    KeyStoreOptions keys = new KeyStoreOptions();

    @Override
    public Integer call() {
        Path directory = target;
        String cycleFileName = null;
        if (Files.isRegularFile(target) && target.getFileName().toString().endsWith(Queues.CYCLE_FILE_SUFFIX)) {
            directory = target.toAbsolutePath().getParent();
            cycleFileName = target.getFileName().toString();
        }
        PrintWriter out = spec.commandLine().getOut();
        try (MappedQueue queue = Queues.openReadOnly(directory, keys)) {
            long cycle = cycleFileName == null ? -1 : cycleOf(queue.cycleCalendar(), cycleFileName);
            queue.dumpCycle(cycle, new ReadOutput(out),
                    (excerpt, text) -> text.append(ExcerptRendering.quoted(excerpt)));
        } catch (OutputClosed closed) {
            return 0;
        } catch (MissingKeyException e) {
            // Shown without their contents, each with its key id; the whole dump written first.
            throw keys.explain(e, directory);
        } finally {
            out.flush();
        }
        return 0;
    }

    /** Thrown when nobody reads the output any more (cq dump | head): the dump stops there. */
    private static final class OutputClosed extends RuntimeException {
        OutputClosed() {
            super(null, null, false, false);
        }
    }

    /**
     * The output, asked every few thousand appends whether its reader is still there: a PrintWriter keeps a failed
     * write to itself, so the dump would otherwise render the whole queue into a closed pipe.
     */
    private static final class ReadOutput implements Appendable {
        private final PrintWriter out;
        private int appends;

        ReadOutput(PrintWriter out) {
            this.out = out;
        }

        @Override
        public Appendable append(CharSequence text) {
            out.append(text);
            return checked();
        }

        @Override
        public Appendable append(CharSequence text, int start, int end) {
            out.append(text, start, end);
            return checked();
        }

        @Override
        public Appendable append(char c) {
            out.append(c);
            return checked();
        }

        private Appendable checked() {
            if ((++appends & 4095) == 0 && Queues.outputClosed(out)) {
                throw new OutputClosed();
            }
            return this;
        }
    }

    private static long cycleOf(CycleCalendar calendar, String fileName) {
        String name = fileName.substring(0, fileName.length() - Queues.CYCLE_FILE_SUFFIX.length());
        return calendar.parseCycle(name).orElseThrow(() -> new UserInputException(fileName
                + " is not named after a cycle of the queue (" + calendar + ")"));
    }
}
