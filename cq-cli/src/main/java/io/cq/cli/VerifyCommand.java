package io.cq.cli;

import io.cq.core.CorruptQueueException;
import io.cq.core.MappedQueue;
import io.cq.core.QueueVerification;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code cq verify}: checks every file; exit code 0 when intact, 1 when damaged. */
@Command(name = "verify", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = "Check every file of a queue against the format (record headers and lengths, end-of-cycle marks, "
                + "file sizes, index entries; with excerpt codecs every excerpt's checksum or, given the key store, "
                + "its AES-GCM tag) and report damage with its file and byte position. Exit code 0 when the queue is "
                + "intact, 1 when something is damaged, 2 when the directory is not a queue.")
final class VerifyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "<dir>", description = "The queue directory.")
    Path directory;

    @Mixin
    KeyStoreOptions keys = new KeyStoreOptions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        QueueVerification verification;
        Queues.checkQueueDirectory(directory);
        try (MappedQueue queue = Queues.openReadOnly(directory, keys)) {
            verification = queue.verify();
        } catch (CorruptQueueException e) {
            // The table store itself is damaged: the queue cannot even be opened.
            out.println("DAMAGE " + e.file() + " at " + e.position() + ": " + e.problem());
            out.println(directory + ": damaged");
            out.flush();
            return CqCli.EXIT_DAMAGED;
        }
        for (QueueVerification.Finding finding : verification.findings()) {
            out.println(finding);
        }
        out.println(directory + ": " + verification.filesChecked() + " files, " + verification.excerptsChecked()
                + " excerpts checked, " + (verification.isIntact() ? "intact" : "damaged"));
        out.flush();
        return verification.isIntact() ? 0 : CqCli.EXIT_DAMAGED;
    }
}
