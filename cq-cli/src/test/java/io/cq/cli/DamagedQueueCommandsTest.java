package io.cq.cli;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every command, run as {@code cq} runs (its own JVM, cq's warnings on stderr through java.util.logging), prints
 * one line on stderr for a damaged queue it meets, with the documented exit code: no warning from the close of the
 * same command follows or precedes it (issue 39: {@code cq write} on a queue cut inside an excerpt first warned that
 * it could not shrink the newest cycle file). {@code verify} and {@code repair} report damage on stdout, exit 1 and
 * print nothing on stderr.
 */
class DamagedQueueCommandsTest {
    @TempDir
    Path dir;

    enum Damage {
        /** The newest cycle file cut inside its last excerpt. */
        CUT_INSIDE_AN_EXCERPT("dump", "tail", "tail --from", "write", "stats"),
        /** A record's header word no record has, in the middle: tail and write do not go there. */
        DAMAGED_RECORD_HEADER("dump", "stats"),
        /** The cycle file's own header (its magic). */
        DAMAGED_FILE_HEADER("dump", "tail", "tail --from", "write", "stats"),
        /** The primary index slot pointing at an excerpt instead of an index block: dump reads on without it. */
        BAD_INDEX_POINTER("tail", "tail --from", "write", "stats");

        /** The commands that meet the damage (exit 4); the others read without meeting it. */
        final List<String> meeting;

        Damage(String... meeting) {
            this.meeting = List.of(meeting);
        }
    }

    record Run(int exit, List<String> err, String out) {
    }

    @ParameterizedTest
    @EnumSource(Damage.class)
    void shouldReportTheDamageInOneLineFromEveryCommand(Damage damage) throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            for (int i = 0; i < 100; i++) {
                appender.writeText("excerpt " + i + " " + "x".repeat(40));
            }
        }
        Path file;
        try (Stream<Path> files = Files.list(queue)) {
            file = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        damage(file, damage);
        Path document = Files.writeString(dir.resolve("one.yaml"), "1\n");

        for (String[] command : List.of(new String[] {"dump", queue.toString()},
                new String[] {"tail", "--last", "5", queue.toString()},
                new String[] {"tail", "--from", "0x" + Long.toHexString(firstIndexPlus(queue, 90)), queue.toString()},
                new String[] {"write", queue.toString(), "onX", document.toString()},
                new String[] {"stats", queue.toString()})) {
            Run run = cq(command);
            String what = String.join(" ", command) + " on " + damage + ": " + run;
            String name = command[0] + (command[1].equals("--from") ? " --from" : "");
            assertThat(run.exit()).as(what).isEqualTo(damage.meeting.contains(name) ? 4 : 0);
            if (run.exit() == 4) {
                assertThat(run.err()).as(what).singleElement().asString()
                        .startsWith("cq " + command[0] + ": damaged queue: " + file + " at position ");
            } else {
                assertThat(run.err()).as(what).isEmpty();
            }
        }
        for (String[] command : List.of(new String[] {"verify", queue.toString()},
                new String[] {"repair", queue.toString()})) {
            Run run = cq(command);
            String what = String.join(" ", command) + " on " + damage + ": " + run;
            assertThat(run.exit()).as(what).isEqualTo(1);
            assertThat(run.err()).as(what).isEmpty();
            assertThat(run.out()).as(what).contains("DAMAGE " + file + " at ");
        }
    }

    @org.junit.jupiter.api.Test
    void shouldRebuildAnIndexThatPointsAtAnExcerptSoThatWritesGoOn() throws Exception {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            for (int i = 0; i < 100; i++) {
                appender.writeText("excerpt " + i);
            }
        }
        Path file;
        try (Stream<Path> files = Files.list(queue)) {
            file = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        damage(file, Damage.BAD_INDEX_POINTER);
        Path document = Files.writeString(dir.resolve("one.yaml"), "1\n");

        Run repair = cq("repair", "--skip-damaged", queue.toString());
        Run write = cq("write", queue.toString(), "onX", document.toString());
        Run verify = cq("verify", queue.toString());

        assertThat(repair.exit()).as(repair.toString()).isZero();
        assertThat(repair.out()).contains("REBUILT INDEX " + file + ": it was wrong from position 256")
                .endsWith(": 1 cycle indexes rebuilt\n");
        assertThat(write.exit()).as(write.toString()).isZero();
        assertThat(write.err()).isEmpty();
        assertThat(verify.exit()).as(verify.toString()).isZero();
    }

    private static long firstIndexPlus(Path queue, long plus) {
        // From the file name's cycle: a queue with one daily cycle, its first index at sequence 0.
        String name;
        try (Stream<Path> files = Files.list(queue)) {
            name = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow().getFileName()
                    .toString();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        long day = java.time.LocalDate.parse(name.substring(0, 8), java.time.format.DateTimeFormatter.BASIC_ISO_DATE)
                .toEpochDay();
        return (day << 32) + plus;
    }

    private static void damage(Path file, Damage damage) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            long dataStart = readLong(raf, 56);
            List<Long> excerpts = excerpts(raf, dataStart);
            switch (damage) {
                case CUT_INSIDE_AN_EXCERPT -> raf.setLength(excerpts.getLast() + 10);
                case DAMAGED_RECORD_HEADER -> writeLong(raf, excerpts.get(50), 0x1234_5678_1234_5678L);
                case DAMAGED_FILE_HEADER -> writeLong(raf, 0, 0x0102_0304_0506_0708L);
                case BAD_INDEX_POINTER -> writeLong(raf, 256, excerpts.get(10));
            }
        }
    }

    private static List<Long> excerpts(RandomAccessFile raf, long dataStart) throws IOException {
        List<Long> positions = new ArrayList<>();
        long position = dataStart;
        while (position + 4 <= raf.length()) {
            raf.seek(position);
            byte[] word = new byte[4];
            raf.readFully(word);
            int header = ByteBuffer.wrap(word).order(ByteOrder.LITTLE_ENDIAN).getInt();
            if ((header & 0xE000_0000) == 0x2000_0000) {
                positions.add(position);
            } else if ((header & 0xE000_0000) != 0x6000_0000) {
                break;
            }
            position = (position + 4 + (header & 0x1FFF_FFFF) + 3) & -4L;
        }
        return positions;
    }

    private static long readLong(RandomAccessFile raf, long position) throws IOException {
        raf.seek(position);
        byte[] bytes = new byte[8];
        raf.readFully(bytes);
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    private static void writeLong(RandomAccessFile raf, long position, long value) throws IOException {
        raf.seek(position);
        raf.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(value).array());
    }

    /** Runs {@code cq} in a JVM of its own, as bin/cq does (its main, so that its logging is set up as there). */
    private static Run cq(String... args) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx256m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), CqCli.class.getName()));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File(
                "/dev/null"))).start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).isTrue();
        return new Run(process.exitValue(), new String(err, StandardCharsets.UTF_8).lines().toList(),
                new String(out, StandardCharsets.UTF_8));
    }
}
