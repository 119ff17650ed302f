package io.cq.cli;

import io.cq.core.CorruptQueueException;
import io.cq.core.MappedQueue;
import io.cq.core.QueueException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The {@code cq} command line (docs/cli.md). Exit codes: 0 done, 1 {@code verify} found damage, 2 bad usage or
 * no queue where one was named, 3 an unexpected failure, 4 a damaged queue met by another command. A failure is one
 * line on stderr; {@code --debug} adds its stack trace.
 */
@Command(name = "cq", mixinStandardHelpOptions = true, versionProvider = CqCli.Version.class,
        description = "Look into and use cq queues: dump, tail, write, stats, verify, repair.%n"
                + "Every command opens queues read-only (except write and repair --skip-damaged) and works while "
                + "other processes append.")
public final class CqCli implements Runnable {
    /**
     * The commands, by the names their {@code @Command} annotations give (CqCliTest checks that they agree). They are
     * added when the command line is made, and only the one named when a command is named: picocli builds a
     * command's model by reflection when it is added, tens of milliseconds for all of them on the path to
     * {@code cq tail}'s first line (docs/cli.md).
     */
    static final String[] COMMAND_NAMES = {"dump", "tail", "write", "stats", "verify", "repair"};
    static final Class<?>[] COMMANDS = {DumpCommand.class, TailCommand.class, WriteCommand.class,
        StatsCommand.class, VerifyCommand.class, RepairCommand.class};

    static final int EXIT_DAMAGED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_FAILURE = 3;
    static final int EXIT_CORRUPT = 4;

    private static final String LOG_FORMAT = "java.util.logging.SimpleFormatter.format";

    @Option(names = "--debug", scope = CommandLine.ScopeType.INHERIT,
            description = "On a failure, print its stack trace as well.")
    boolean debug;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        // Every command opens a queue, after picocli has read the arguments: the JDK's part of that overlaps.
        boolean debug = Arrays.asList(args).contains("--debug");
        // cq's warnings (a damaged queue met while closing, a repair's skipped range) go through System.Logger to
        // java.util.logging: one line each, as a failure is, the stack trace only with --debug.
        if (System.getProperty(LOG_FORMAT) == null) {
            System.setProperty(LOG_FORMAT, debug ? "cq: %4$s: %5$s%6$s%n" : "cq: %4$s: %5$s%n");
        }
        MappedQueue.warmUp();
        int exit;
        try {
            exit = commandLine(args).execute(args);
        } catch (InternalError e) {
            // A mapped page the file no longer holds: the JVM turns the fault (SIGBUS) into this error, which
            // picocli does not hand to the failure handler, being no Exception. The file was cut short under the
            // command by something other than cq, which never cuts what a reader may still read.
            System.err.println("cq: damaged queue: a file of the queue ended before the data being read: it was cut "
                    + "short while this command read it (" + e.getMessage() + "); cq verify names the file");
            if (debug) {
                e.printStackTrace();
            }
            exit = EXIT_CORRUPT;
        }
        System.exit(exit);
    }

    /** The command line with every command and cq's error handling, ready to {@code execute}. */
    public static CommandLine commandLine() {
        return commandLine(new String[0]);
    }

    /**
     * The command line for these arguments, ready to {@code execute} them: with only the command they name, or with
     * every command where they name none (usage, help, a mistyped name), so that picocli's answer is the same.
     */
    public static CommandLine commandLine(String[] args) {
        CommandLine commandLine = new CommandLine(new CqCli());
        String named = namedCommand(args);
        for (int i = 0; i < COMMANDS.length; i++) {
            if (named == null || named.equals(COMMAND_NAMES[i])) {
                commandLine.addSubcommand(COMMAND_NAMES[i], COMMANDS[i]);
            }
        }
        if (named == null) {
            commandLine.addSubcommand("help", new CommandLine.HelpCommand());
        }
        // Both apply to the commands added so far: so they are set after adding them.
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setExecutionExceptionHandler(new FailureHandler());
        commandLine.setParameterExceptionHandler(new UsageErrorHandler());
        return commandLine;
    }

    /** The command the arguments name: the first that is not an option of cq itself, when it is one; else null. */
    private static String namedCommand(String[] args) {
        for (String arg : args) {
            if (arg.startsWith("-")) {
                continue;
            }
            for (String name : COMMAND_NAMES) {
                if (name.equals(arg)) {
                    return name;
                }
            }
            return null;
        }
        return null;
    }

    /**
     * A mistyped option or argument is one line too, naming the help to read, rather than picocli's whole usage text
     * after it; a mistyped command name keeps picocli's suggestions.
     */
    private static final class UsageErrorHandler implements CommandLine.IParameterExceptionHandler {
        @Override
        public int handleParseException(CommandLine.ParameterException failure, String[] args) {
            CommandLine command = failure.getCommandLine();
            PrintWriter err = command.getErr();
            String name = command.getCommandSpec().qualifiedName();
            err.println(command.getColorScheme().errorText(name + ": " + failure.getMessage()));
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(failure, err)) {
                err.println(name + " --help lists what it takes");
            }
            err.flush();
            return EXIT_USAGE;
        }
    }

    /** A class, not a method reference: the first of those in a JVM generates code on the start-up path. */
    private static final class FailureHandler implements CommandLine.IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception failure, CommandLine commandLine,
                                            CommandLine.ParseResult parseResult) {
            return handleFailure(failure, commandLine, parseResult);
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "Missing command: one of " + String.join(", ", COMMAND_NAMES));
    }

    /**
     * A failure is one line on stderr: the user's input (no queue there, a bad argument), a damaged queue (with the
     * file and position the error names), or, for anything else, a defect named by its type. The stack trace only
     * with {@code --debug}.
     */
    private static int handleFailure(Exception failure, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        int exit;
        String line;
        if (failure instanceof CorruptQueueException) {
            exit = EXIT_CORRUPT;
            line = "damaged queue: " + failure.getMessage();
        } else if (failure instanceof QueueException || failure instanceof UncheckedIOException
                || failure instanceof IllegalArgumentException || failure instanceof UserInputException) {
            exit = EXIT_USAGE;
            line = failure.getMessage();
        } else {
            exit = EXIT_FAILURE;
            line = "unexpected failure (" + failure.getClass().getName() + "): " + failure.getMessage()
                    + (debugRequested(parseResult) ? "" : "; run with --debug for the stack trace");
        }
        err.println(commandLine.getColorScheme().errorText("cq " + commandLine.getCommandName() + ": " + line));
        if (debugRequested(parseResult)) {
            failure.printStackTrace(err);
        }
        err.flush();
        return exit;
    }

    private static boolean debugRequested(CommandLine.ParseResult parseResult) {
        for (CommandLine.ParseResult result = parseResult; result != null; result = result.subcommand()) {
            if (result.hasMatchedOption("--debug")) {
                return true;
            }
        }
        return false;
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
