package io.cq.core;

import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.crypto.spec.SecretKeySpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Randomly damaged copies of a real queue (random bytes or zeros anywhere in any file, the table store's included,
 * or files cut short): each is read up to the damage exactly as written, then either reads to the end (the damage
 * hit payload bytes, which carry no checksum, or unused space) or fails loudly with a cq error. A copy read only
 * part-way without an error (silent), another exception (foreign) or a read that does not finish (hung) fails the
 * test. 1,000 copies by default; {@code -Pfuzz} (README) or {@code -Dcq.fuzz.iterations=N} runs more. The copies are
 * damaged one after the other from one seeded {@link Random} and checked on every core, a few at a time.
 *
 * <p>The same runs on a checksummed and on an encrypted queue (docs/codecs.md), half as many copies each by default
 * ({@code -Dcq.fuzz.codecIterations=N}); there every excerpt read, before the damage or after it, must be the one
 * written: a payload changed by the damage must fail its checksum or tag, never be read as whole.
 */
class CorruptionFuzzTest {
    private static final int ITERATIONS = Integer.getInteger("cq.fuzz.iterations", 1_000);
    private static final int CODEC_ITERATIONS = Integer.getInteger("cq.fuzz.codecIterations", ITERATIONS / 2);
    private static final EncryptionKeys KEYS = EncryptionKeys.of(new SecretKeySpec(new byte[]{
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, "AES"));
    private static final long SEED = Long.getLong("cq.fuzz.seed", 4242);
    private static final Pattern EXCERPT_LINE = Pattern.compile("^0x([0-9a-f]+) @(\\d+) \\((\\d+) bytes\\)");
    /** How an error names where the damage is: "at position 1234" (CorruptQueueException), or a byte range. */
    private static final Pattern POSITION = Pattern.compile("\\b(position|at) \\d+\\b");

    @TempDir
    Path dir;

    /** Where an excerpt of the original queue lies. */
    private record Placement(String file, long end, byte[] content) {
    }

    /** The queue that is damaged: plain, checksummed or encrypted. */
    private enum Variant {
        PLAIN(ExcerptCodecs.none()),
        CHECKSUMS(ExcerptCodecs.none().withChecksums()),
        ENCRYPTED(ExcerptCodecs.none().withEncryption(KEYS));

        final ExcerptCodecs codecs;

        Variant(ExcerptCodecs codecs) {
            this.codecs = codecs;
        }

        MappedQueueBuilder builder(Path directory) {
            MappedQueueBuilder builder = MappedQueue.builder(directory).rollCycle(RollCycle.TEST_SECONDLY);
            return this == ENCRYPTED ? builder.encryptionKeys(KEYS) : builder;
        }
    }

    @Test
    void shouldReadDamagedCopiesCorrectlyUpToTheDamageOrRefuseThemWithAQueueError() throws Exception {
        fuzz(Variant.PLAIN, ITERATIONS);
    }

    @Test
    void shouldNeverReadAnAlteredPayloadFromADamagedChecksummedCopy() throws Exception {
        fuzz(Variant.CHECKSUMS, CODEC_ITERATIONS);
    }

    @Test
    void shouldNeverReadAnAlteredPayloadFromADamagedEncryptedCopy() throws Exception {
        fuzz(Variant.ENCRYPTED, CODEC_ITERATIONS);
    }

    private void fuzz(Variant variant, int iterations) throws Exception {
        Path original = dir.resolve("original");
        List<Placement> excerpts = writeOriginal(original, variant);
        List<Path> files;
        try (Stream<Path> list = Files.list(original)) {
            files = list.sorted().toList();
        }
        Random random = new Random(SEED);
        int intact = 0;
        int loud = 0;
        List<String> silent = new ArrayList<>();
        List<String> foreign = new ArrayList<>();
        List<String> unnamed = new ArrayList<>();
        // Each copy is damaged here, in order, from the one seeded Random (the same copies as ever); reading and
        // inspecting the copies, which is most of the time, runs on every core, a few copies at a time.
        int workers = Math.max(2, Runtime.getRuntime().availableProcessors());
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        Deque<Future<Checked>> inFlight = new ArrayDeque<>();
        try {
            for (int iteration = 0; iteration < iterations; iteration++) {
                Path copy = dir.resolve("copy-" + iteration);
                Files.createDirectories(copy);
                for (Path file : files) {
                    Files.copy(file, copy.resolve(file.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                }
                Path victim = copy.resolve(files.get(random.nextInt(files.size())).getFileName());
                String damage = damage(victim, random);
                long seekTo = random.nextInt(excerpts.size());
                inFlight.add(pool.submit(() -> check(variant, copy, excerpts, victim.getFileName().toString(), damage,
                        seekTo)));
                while (inFlight.size() > 2 * workers || (iteration == iterations - 1 && !inFlight.isEmpty())) {
                    Checked checked = result(inFlight.removeFirst());
                    foreign.addAll(checked.foreign());
                    unnamed.addAll(checked.unnamed());
                    if (checked.outcome() == -1) {
                        loud++;
                    } else if (checked.outcome() >= excerpts.size()) {
                        intact++;
                    } else if (checked.outcome() >= 0) {
                        silent.add(checked.described() + " -> read " + checked.outcome() + " of " + excerpts.size());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("corruption fuzz, %s (seed %d): %d copies, %d intact, %d loud, %d silent, %d foreign, 0 "
                + "hung, %d errors not naming file and position%n", variant, SEED, iterations, intact, loud,
                silent.size(), foreign.size(), unnamed.size());
        unnamed.stream().limit(100).forEach(line -> System.out.println("not naming file and position: " + line));
        assertThat(silent).as("copies read part-way without an error").isEmpty();
        assertThat(foreign).as("copies refused with an exception that is not cq's").isEmpty();
        assertThat(unnamed).as("errors that do not name the damaged file and a position in it").isEmpty();
        // The damage must have mattered often, or this test proves little.
        assertThat(loud).as("copies refused").isGreaterThan(iterations / 20);
    }

    /** What checking one damaged copy found: the outcome of reading it and the foreign exceptions. */
    private record Checked(String described, int outcome, List<String> foreign, List<String> unnamed) {
    }

    /**
     * A loud error must say where the damage is: the file (in the copy) and a position in it, so that a user can
     * look there, and cq verify and repair find the same. A {@link CorruptQueueException} must name the file that
     * was damaged, not another one the damage led a reader to.
     */
    private static void requireNamesFileAndPosition(Exception e, Path copy, String described, List<String> unnamed) {
        String message = e.getMessage();
        assertThat(message).as("error message").isNotBlank();
        boolean otherFile = e instanceof CorruptQueueException c
                && !(c.file().startsWith(copy) && described.startsWith(c.file().getFileName() + ":"));
        if (otherFile || !message.contains(copy + copy.getFileSystem().getSeparator())
                || !POSITION.matcher(message).find()) {
            unnamed.add(described + " -> " + e);
        }
    }

    /**
     * Reads the damaged copy forward, then inspects it (random access, dump, verify, append), then deletes it.
     * {@code outcome}: -1 refused with a cq error, -2 a foreign exception, else the number of excerpts read.
     */
    private static Checked check(Variant variant, Path copy, List<Placement> excerpts, String damagedName,
                                 String damage, long seekTo) throws IOException {
        long damageAt = Long.parseLong(damage.substring(damage.lastIndexOf(' ') + 1));
        String described = damagedName + ": " + damage;
        List<String> foreign = new ArrayList<>();
        List<String> unnamed = new ArrayList<>();
        int outcome;
        try {
            outcome = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> readAndCheck(variant, copy, excerpts, damagedName, damageAt, described, unnamed),
                    () -> "hung: reading the copy with " + described + " did not finish");
        } catch (AssertionError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            foreign.add(described + " -> " + e);
            outcome = -2;
        }
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> inspect(variant, copy, seekTo, described,
                            unnamed),
                    () -> "hung: random access, dump or verify of the copy with " + described);
        } catch (AssertionError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            foreign.add(described + " (random access, dump, verify) -> " + e);
        }
        deleteRecursively(copy);
        return new Checked(described, outcome, foreign, unnamed);
    }

    /** The result of a check; an assertion that failed in it fails the test as it is. */
    private static Checked result(Future<Checked> checked) throws Exception {
        try {
            return checked.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw (Exception) e.getCause();
        }
    }

    /**
     * Random access to one excerpt, a dump, a verify and an append to the damaged copy: each either works or fails
     * with a cq error (verify reports damage as findings); nothing else may come out of them.
     */
    private static void inspect(Variant variant, Path copy, long seekTo, String described, List<String> unnamed) {
        try (MappedQueue queue = variant.builder(copy).readOnly(true).build()) {
            try (ExcerptTailer tailer = queue.createTailer()) {
                long first = queue.firstIndex();
                if (first >= 0 && tailer.moveToIndex(queue.rollCycle().toIndex(queue.rollCycle().toCycle(first),
                        seekTo % 500))) {
                    tailer.readBytes();
                }
            } catch (QueueException | UncheckedIOException e) {
                requireNamesFileAndPosition(e, copy, described + " (inspecting)", unnamed);
            }
            try {
                queue.namedTailers();
                queue.lastIndex();
            } catch (QueueException | UncheckedIOException e) {
                requireNamesFileAndPosition(e, copy, described + " (inspecting)", unnamed);
            }
            try {
                queue.dump();
            } catch (QueueException | UncheckedIOException e) {
                requireNamesFileAndPosition(e, copy, described + " (inspecting)", unnamed);
            }
            try {
                queue.verify();
            } catch (QueueException | UncheckedIOException e) {
                requireNamesFileAndPosition(e, copy, described + " (inspecting)", unnamed);
            }
        } catch (QueueException | UncheckedIOException e) {
            requireNamesFileAndPosition(e, copy, described + " (inspecting)", unnamed);
        }
        // Last, as it changes the copy: a writer either appends or refuses the damage with a cq error.
        try (MappedQueue queue = variant.builder(copy).build()) {
            queue.acquireAppender().writeText("appended to a damaged copy");
        } catch (QueueException | UncheckedIOException e) {
            requireNamesFileAndPosition(e, copy, described + " (inspecting)", unnamed);
        }
    }

    /** @return -1 when refused with a cq error, else the number of excerpts read */
    private static int readAndCheck(Variant variant, Path copy, List<Placement> excerpts, String damagedFile,
                                    long damageAt, String described, List<String> unnamed) {
        try (MappedQueue queue = variant.builder(copy).readOnly(true).build()) {
            ExcerptTailer tailer = queue.createTailer();
            int read = 0;
            boolean pastDamage = false;
            while (read < excerpts.size() + 10) {
                byte[] bytes = tailer.readBytes();
                if (bytes == null) {
                    break;
                }
                if (read < excerpts.size() && !pastDamage) {
                    Placement expected = excerpts.get(read);
                    boolean beforeDamage = expected.file().compareTo(damagedFile) < 0
                            || (expected.file().equals(damagedFile) && expected.end() <= damageAt);
                    if (beforeDamage || variant != Variant.PLAIN) {
                        // With a checksum or tag, an excerpt handed out after the damage must be whole as well.
                        assertThat(bytes).as("excerpt %d %s the damage (%s)", read, beforeDamage ? "before" : "after",
                                described).isEqualTo(expected.content());
                    } else {
                        pastDamage = true;
                    }
                }
                read++;
            }
            return read;
        } catch (QueueException | UncheckedIOException e) {
            requireNamesFileAndPosition(e, copy, described, unnamed);
            return -1;
        }
    }

    /**
     * Overwrites 1 to 8 random bytes, or zeros 4 to 4096 bytes, somewhere (mostly where the file holds data, else in
     * its first kilobyte: headers, index, table-store fields), or cuts the file short. Returns what it did, ending
     * with the first damaged position.
     */
    private static String damage(Path file, Random random) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long used = Math.max(8, usedLength(channel));
            long position = random.nextInt(10) < 7 ? (long) (random.nextDouble() * used) : random.nextInt(1024);
            int kind = random.nextInt(10);
            if (kind == 0) {
                channel.truncate(position);
                return "cut short at " + position;
            }
            byte[] bytes;
            if (kind <= 2) {
                bytes = new byte[4 + random.nextInt(4093)];
            } else {
                bytes = new byte[1 + random.nextInt(8)];
                random.nextBytes(bytes);
            }
            channel.write(ByteBuffer.wrap(bytes), position);
            return (kind <= 2 ? bytes.length + " zeros" : bytes.length + " random bytes") + " at " + position;
        }
    }

    /** The part of a file that is not trailing zeros: damage there is meaningful. */
    private static long usedLength(FileChannel channel) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(channel.size(), 4 << 20));
        channel.read(buffer, 0);
        byte[] bytes = buffer.array();
        int end = buffer.position();
        while (end > 0 && bytes[end - 1] == 0) {
            end--;
        }
        return end;
    }

    private List<Placement> writeOriginal(Path original, Variant variant) {
        MutableClock clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
        Random random = new Random(7);
        List<byte[]> contents = new ArrayList<>();
        try (MappedQueue queue = variant.builder(original).codecs(variant.codecs).clock(clock)
                .blockSize(64 * 1024).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 1_500; i++) {
                byte[] content = new byte[random.nextInt(i % 100 == 0 ? 3_000 : 120)];
                random.nextBytes(content);
                contents.add(content);
                appender.writeBytes(content);
                if (i % 500 == 499) {
                    clock.advance(Duration.ofSeconds(1));
                }
            }
            queue.createTailer("reader").readBytes();
            return variant == Variant.PLAIN ? placements(queue.dump(), contents) : framedPlacements(original, contents);
        }
    }

    /** Each excerpt's file and end position, from the dump of the original queue. */
    private static List<Placement> placements(String dump, List<byte[]> contents) {
        List<Placement> result = new ArrayList<>();
        String file = null;
        for (String line : dump.split("\n")) {
            if (line.startsWith("## ")) {
                file = line.substring(3).trim();
                continue;
            }
            Matcher m = EXCERPT_LINE.matcher(line);
            if (m.find()) {
                long position = Long.parseLong(m.group(2));
                int length = Integer.parseInt(m.group(3));
                byte[] content = contents.get(result.size());
                assertThat(length).isEqualTo(content.length);
                result.add(new Placement(file, position + 4 + length, Arrays.copyOf(content, content.length)));
            }
        }
        assertThat(result).hasSize(contents.size());
        return result;
    }

    /**
     * Each excerpt's file and record end, found by walking the records of each cycle file (a framed excerpt's record
     * is longer than its content, so the dump's lengths do not match the contents).
     */
    private static List<Placement> framedPlacements(Path original, List<byte[]> contents) {
        List<Placement> result = new ArrayList<>();
        try (Stream<Path> list = Files.list(original)) {
            for (Path file : list.filter(f -> f.toString().endsWith(".cq4")).sorted().toList()) {
                ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                int p = (int) bytes.getLong(56);
                while (p + 4 <= bytes.limit()) {
                    int header = bytes.getInt(p);
                    int length = header & 0x1FFFFFFF;
                    int kind = header & 0xE0000000;
                    if (kind == 0x20000000) {
                        byte[] content = contents.get(result.size());
                        result.add(new Placement(file.getFileName().toString(), p + 4L + length,
                                Arrays.copyOf(content, content.length)));
                    } else if (kind != 0x60000000 || length == 0x1FFFFFFF) {
                        break;
                    }
                    p = (p + 4 + length + 3) & ~3;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        assertThat(result).hasSize(contents.size());
        return result;
    }

    private static void deleteRecursively(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.sorted((a, b) -> b.compareTo(a)).toList()) {
                Files.delete(path);
            }
        }
    }
}
