package io.cq.cli;

import io.cq.core.CycleCalendar;
import io.cq.core.MappedQueue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code cq dump}: the table store, then every cycle file (or one) record by record. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Show a whole queue, or one cycle file, as text: the queue's settings and named tailers, then "
                + "each file's header and every record (excerpts, index blocks, end-of-cycle marks) with its index and "
                + "byte position.")
final class DumpCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<dir|file>", description = "A queue directory, or one of its .cq4 cycle files.")
    Path target;

    @Override
    public Integer call() {
        Path directory = target;
        String cycleFileName = null;
        if (Files.isRegularFile(target) && target.getFileName().toString().endsWith(Queues.CYCLE_FILE_SUFFIX)) {
            directory = target.toAbsolutePath().getParent();
            cycleFileName = target.getFileName().toString();
        }
        PrintWriter out = spec.commandLine().getOut();
        try (MappedQueue queue = Queues.openReadOnly(directory)) {
            long cycle = cycleFileName == null ? -1 : cycleOf(queue.cycleCalendar(), cycleFileName);
            ExcerptRenderer renderer = new ExcerptRenderer();
            queue.dumpCycle(cycle, out, (excerpt, text) -> text.append(renderer.quoted(excerpt)));
        }
        out.flush();
        return 0;
    }

    private static long cycleOf(CycleCalendar calendar, String fileName) {
        String name = fileName.substring(0, fileName.length() - Queues.CYCLE_FILE_SUFFIX.length());
        return calendar.parseCycle(name).orElseThrow(() -> new UserInputException(fileName
                + " is not named after a cycle of the queue (" + calendar + ")"));
    }
}
