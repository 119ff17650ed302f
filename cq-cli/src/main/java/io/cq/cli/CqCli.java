package io.cq.cli;

import io.cq.core.QueueException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;

/**
 * The {@code cq} command line (docs/cli.md). Exit codes: 0 done, 1 {@code verify} found damage, 2 bad usage or
 * no queue where one was named, 3 an unexpected failure.
 */
@Command(name = "cq", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = "Look into and use cq queues: dump, tail, write, stats, verify.%n"
                + "Every command opens queues read-only (except write) and works while other processes append.",
        subcommands = {DumpCommand.class, TailCommand.class, WriteCommand.class, StatsCommand.class,
                VerifyCommand.class, CommandLine.HelpCommand.class})
public final class CqCli implements Runnable {
    static final int EXIT_DAMAGED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_FAILURE = 3;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with cq's error handling, ready to {@code execute}. */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new CqCli());
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setExecutionExceptionHandler(CqCli::handleFailure);
        return commandLine;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing command: one of dump, tail, write, stats, verify");
    }

    /**
     * Problems with the user's input (no queue there, a damaged file, an unknown index) are one line on stderr,
     * not a stack trace; anything else is a defect and shows its trace.
     */
    private static int handleFailure(Exception failure, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        if (failure instanceof QueueException || failure instanceof UncheckedIOException
                || failure instanceof IllegalArgumentException || failure instanceof UserInputException) {
            err.println(commandLine.getColorScheme()
                    .errorText("cq " + commandLine.getCommandName() + ": " + failure.getMessage()));
            err.flush();
            return EXIT_USAGE;
        }
        failure.printStackTrace(err);
        err.flush();
        return EXIT_FAILURE;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = CqCli.class.getPackage().getImplementationVersion();
            return new String[] {"cq " + (version == null ? "(development build)" : version)
                    + ", Java " + Runtime.version()};
        }
    }
}
