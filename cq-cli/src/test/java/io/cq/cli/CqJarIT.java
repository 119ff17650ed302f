package io.cq.cli;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The packaged {@code target/cq.jar}, run as {@code java -jar} in its own process against a queue this JVM writes. */
class CqJarIT {
    private static final Path JAR = Path.of("target", "cq.jar");

    @TempDir
    Path dir;

    private static Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(), "-jar",
                JAR.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static String outputOf(Process process) throws Exception {
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void shouldRunAsAnExecutableJarWithoutNativeAccessWarnings() throws Exception {
        assertThat(Files.isRegularFile(JAR)).as("the package phase builds " + JAR).isTrue();

        Process version = start("--version");
        String out = outputOf(version);

        assertThat(version.exitValue()).isZero();
        assertThat(out).startsWith("cq ").doesNotContain("WARNING");
    }

    /** Stored, not deflated: the JVM loads each class without inflating it, which shortens start-up. */
    @Test
    void shouldStoreEveryEntryUncompressedAsEveryCqJarDoes() throws Exception {
        List<Path> jars;
        try (Stream<Path> files = Files.list(JAR.getParent())) {
            jars = files.filter(file -> file.getFileName().toString().matches("cq.*\\.jar")).toList();
        }
        assertThat(jars).as("cq.jar and the module's own JAR").contains(JAR).hasSizeGreaterThanOrEqualTo(2);
        for (Path jar : jars) {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                List<String> deflated = zip.stream().filter(entry -> entry.getMethod() != ZipEntry.STORED)
                        .map(ZipEntry::getName).toList();
                assertThat(zip.size()).as("entries of %s", jar).isPositive();
                assertThat(deflated).as("deflated entries of %s", jar).isEmpty();
            }
        }
    }

    @Test
    void shouldFollowAQueueThatAnotherProcessIsWriting() throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            appender.writeText("event 0");
            Process tail = start("tail", "-f", "-s", "--limit", "200", queue.toString());
            for (int i = 1; i < 200; i++) {
                appender.writeText("event " + i);
                if (i % 20 == 0) {
                    Thread.sleep(10); // spread the appends over the tail's lifetime
                }
            }

            List<String> lines = outputOf(tail).lines().toList();

            assertThat(tail.exitValue()).isZero();
            assertThat(lines).hasSize(200);
            for (int i = 0; i < 200; i++) {
                assertThat(lines.get(i)).matches("0x[0-9a-f]+ event " + i);
            }
        }
    }

    @Test
    void shouldCountTheExcerptsOfAQueueThatAnotherProcessHasOpen() throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            for (int i = 0; i < 200; i++) {
                appender.writeText("event " + i);
            }
            Process stats = start("stats", queue.toString());
            String statsOut = outputOf(stats);

            assertThat(stats.exitValue()).isZero();
            assertThat(statsOut).contains("excerpts     200");
        }
    }

    public record Quote(String symbol, double bid, long size) {
    }

    public interface Quotes {
        void quote(Quote quote);
    }

    /** Records hold their values only; tail and dump, in a JVM that never saw the type, show them with their names. */
    @Test
    void shouldShowRecordMessagesWithTheirFieldNamesFromTheQueuesRecordTypes() throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            Messages.methodWriter(appender, Quotes.class).quote(new Quote("AAPL", 189.25, 300));
        }
        Process tail = start("tail", "--format", "json", queue.toString());
        String tailOut = outputOf(tail);
        Process dump = start("dump", queue.toString());
        String dumpOut = outputOf(dump);

        assertThat(tail.exitValue()).isZero();
        assertThat(tailOut).contains("\"arguments\":[{\"symbol\":\"AAPL\",\"bid\":189.25,\"size\":300}]");
        assertThat(dump.exitValue()).isZero();
        assertThat(dumpOut).contains("quote [{\"symbol\":\"AAPL\",\"bid\":189.25,\"size\":300}]");
    }

    /**
     * The build rewrites picocli's Java 5 class files as Java 8 ones with stack map frames, so that an AOT cache can
     * hold them.
     */
    @Test
    void shouldCarryPicocliAsClassFilesAnAotCacheCanHold() throws Exception {
        int picocliClasses = 0;
        try (ZipFile jar = new ZipFile(JAR.toFile())) {
            for (ZipEntry entry : Collections.list(jar.entries())) {
                if (entry.getName().startsWith("picocli/") && entry.getName().endsWith(".class")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        byte[] header = in.readNBytes(8);
                        assertThat(((header[6] & 0xFF) << 8) | (header[7] & 0xFF)).as(entry.getName())
                                .isGreaterThanOrEqualTo(52);
                    }
                    picocliClasses++;
                }
            }
        }
        assertThat(picocliClasses).isGreaterThan(100);
    }

    /** Every command parses its options and prints its help from picocli's rewritten classes. */
    @Test
    void shouldPrintTheHelpOfEveryCommand() throws Exception {
        for (String command : CqCli.COMMAND_NAMES) {
            Process help = start(command, "--help");
            String out = outputOf(help);
            assertThat(help.exitValue()).as(command).isZero();
            assertThat(out).as(command).startsWith("Usage: cq " + command).doesNotContain("Exception");
        }
    }

    @Test
    void shouldRefuseAnUnknownOptionWithExitCode2() throws Exception {
        Process wrong = start("tail", "--no-such-option", dir.toString());
        String out = outputOf(wrong);
        assertThat(wrong.exitValue()).isEqualTo(2);
        assertThat(out).contains("Unknown option: '--no-such-option'");
    }

    /** A reader that goes away ({@code cq tail -f | head -1}) ends the tail, as it ends tail(1). */
    @Test
    void shouldStopFollowingWhenNobodyReadsTheOutputAnyMore() throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            appender.writeText("first");
            Process tail = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-jar",
                    JAR.toAbsolutePath().toString(), "tail", "-f", queue.toString())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(tail.getInputStream(),
                    StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("first");
            out.close();
            // Each append is a line the tail tries to write into the closed pipe.
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                appender.writeText("more");
                return !tail.isAlive();
            });
            assertThat(tail.exitValue()).isZero();
        }
    }

    /**
     * A cycle file cut short by something other than cq while the tail maps it: the JVM's InternalError for the
     * fault is reported as a damaged queue (exit 4), in one line.
     */
    @Test
    void shouldReportAFileCutShortUnderAFollowingTailAsDamage() throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            for (int i = 0; i < 20_000; i++) {
                appender.writeText("excerpt " + i + " padded to a length that fills pages quickly");
            }
        }
        Path cycleFile;
        try (Stream<Path> files = Files.list(queue)) {
            cycleFile = files.filter(file -> file.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        Process tail = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-jar",
                JAR.toAbsolutePath().toString(), "tail", "-f", queue.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        // Let it map the records it reads before the file is cut under it.
        await().atMost(Duration.ofSeconds(60)).until(() -> Files.size(cycleFile) > 0 && tailHasRead(tail));
        try (FileChannel channel = FileChannel.open(cycleFile, StandardOpenOption.WRITE)) {
            channel.truncate(100_000);
        }
        assertThat(tail.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String err = new String(tail.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(tail.exitValue()).isEqualTo(CqCli.EXIT_CORRUPT);
        // One line either way: the tail finds the file cut when it reads the file's length (naming file and
        // position), or when a page it maps is gone (the JVM's error, said in words).
        assertThat(err).containsPattern("^cq( tail)?: damaged queue: ").hasLineCount(1).doesNotContain("\tat ");
    }

    /** The tail has opened the queue once its JVM maps a cycle file, which /proc shows. */
    private static boolean tailHasRead(Process tail) throws IOException {
        Path maps = Path.of("/proc", String.valueOf(tail.pid()), "maps");
        return !Files.exists(maps) || Files.readString(maps).contains(".cq4");
    }
}
