package io.cq.cli;

import io.cq.core.CorruptQueueException;
import io.cq.core.MappedQueue;
import io.cq.core.MissingKeyException;
import io.cq.core.QueueRepair;
import io.cq.core.QueueVerification;
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

/**
 * {@code cq repair}: shows the damage that repairing would skip, and skips it only when asked with
 * {@code --skip-damaged} ({@link MappedQueue#repair()}).
 */
@Command(name = "repair", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = {"Make a damaged queue readable again by cutting each damaged cycle at its first unreadable "
                + "record: the excerpts after it are lost. Without --skip-damaged, only shows the damage (as verify "
                + "does) and changes nothing. Stop the queue's readers and writers first, and keep a copy of the "
                + "directory if the lost excerpts matter.",
            "Exit code 0 when nothing is damaged or the damage was skipped, 1 when damage was found and not skipped."})
final class RepairCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<dir>", description = "The queue directory.")
    Path directory;

    @Option(names = "--skip-damaged", description = "Cut the damaged cycles (the excerpts after the damage are lost).")
    boolean skipDamaged;

    @Mixin
    KeyStoreOptions keys = new KeyStoreOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Queues.checkQueueDirectory(directory);
        if (!skipDamaged) {
            QueueVerification verification;
            try (MappedQueue queue = Queues.openReadOnly(directory, keys)) {
                verification = queue.verify();
            } catch (CorruptQueueException e) {
                // The table store itself is damaged, as cq verify reports it: no cycle can be cut to mend that.
                out.println("DAMAGE " + e.file() + " at " + e.position() + ": " + e.problem());
                out.println(directory + ": damaged; --skip-damaged cannot mend the table store (" + Queues.TABLE_STORE
                        + "): docs/operations.md, \"Damaged files\", says what to do");
                out.flush();
                return CqCli.EXIT_DAMAGED;
            }
            verification.findings().forEach(out::println);
            if (verification.isIntact()) {
                out.println(directory + ": intact, nothing to repair");
                out.flush();
                return 0;
            }
            out.println(directory + ": damaged; run again with --skip-damaged to cut each damaged cycle at its first "
                    + "unreadable record (the excerpts after it are lost)");
            out.flush();
            return CqCli.EXIT_DAMAGED;
        }
        Queues.checkQueueDirectory(directory);
        // Through the builder, which also opens a queue no writer would open, its newest cycle's file being gone.
        QueueRepair repair;
        try {
            repair = keys.apply(MappedQueue.builder(directory), false).repair();
        } catch (MissingKeyException e) {
            throw keys.explain(e, directory);
        }
        if (repair.cycleRangeReset() != null) {
            QueueRepair.CycleRangeReset reset = repair.cycleRangeReset();
            out.println("RESET " + reset.tableStore() + ": its newest cycle " + reset.storedNewest()
                    + " had no file; now " + reset.newest());
        }
        for (QueueRepair.SetAside aside : repair.setAside()) {
            out.println("SET ASIDE " + aside.file() + " as " + aside.renamed() + ": " + aside.problem());
        }
        for (QueueRepair.Skipped range : repair.skipped()) {
            out.println("SKIPPED " + range.file() + " from " + range.from() + " to " + range.to() + ": "
                    + range.excerptsSkipped() + " excerpts");
        }
        for (QueueRepair.IndexRebuilt index : repair.indexesRebuilt()) {
            out.println("REBUILT INDEX " + index.file() + ": it was wrong from position " + index.position()
                    + "; no excerpt lost");
        }
        List<String> done = new ArrayList<>();
        if (!repair.skipped().isEmpty()) {
            done.add(repair.skipped().size() + " cycle files repaired");
        }
        if (!repair.setAside().isEmpty()) {
            done.add(repair.setAside().size() + " cycle files set aside");
        }
        if (!repair.indexesRebuilt().isEmpty()) {
            done.add(repair.indexesRebuilt().size() + " cycle indexes rebuilt");
        }
        if (repair.cycleRangeReset() != null) {
            done.add("the table store's cycle range reset");
        }
        out.println(directory + ": " + (done.isEmpty() ? "nothing was damaged" : String.join(", ", done)));
        out.flush();
        return 0;
    }
}
