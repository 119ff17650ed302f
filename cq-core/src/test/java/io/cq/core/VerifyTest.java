package io.cq.core;

import io.cq.core.QueueVerification.Severity;
import io.cq.core.internal.layout.IndexDescriptor;
import io.cq.core.support.MutableClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VerifyTest {
    private static final Pattern EXCERPT = Pattern.compile("^0x[0-9a-f]+ @(\\d+) \\(\\d+ bytes\\)", Pattern.MULTILINE);
    private static final Pattern INDEX_BLOCK = Pattern.compile("^@(\\d+) index block", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void shouldReportBytesWrittenInTheUnwrittenAreaAfterTheLastRecord() throws IOException {
        Path queueDir = dir.resolve("tail-garbage");
        try (MappedQueue queue = MappedQueue.builder(queueDir).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int i = 0; i < 100; i++) {
                appender.writeText("excerpt " + i);
            }
            assertThat(queue.verify().isIntact()).isTrue();
            Path cycleFile;
            try (Stream<Path> files = Files.list(queueDir)) {
                cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
            }
            long garbageAt;
            try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
                // well after the last record, inside what the writer has reserved and mapped
                garbageAt = 200_000;
                assertThat(raf.length()).isGreaterThan(garbageAt + 4);
                raf.seek(garbageAt);
                raf.writeInt(0x7fffffff);
            }

            QueueVerification verification = queue.verify();

            assertThat(verification.isIntact()).isFalse();
            assertThat(verification.findings()).singleElement().satisfies(finding -> {
                assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
                assertThat(finding.position()).isEqualTo(garbageAt);
                assertThat(finding.description()).contains("after the last record");
            });
        }
    }

    @Test
    void shouldFindNothingWrongInAQueueWrittenAcrossCycles() {
        writeQueue(3, 100);

        QueueVerification verification = verify();

        assertThat(verification.findings()).isEmpty();
        assertThat(verification.isIntact()).isTrue();
        assertThat(verification.filesChecked()).isEqualTo(3);
        assertThat(verification.excerptsChecked()).isEqualTo(300);
    }

    @Test
    void shouldReportAnOverwrittenRecordHeaderWithItsFileAndPosition() throws IOException {
        writeQueue(2, 100);
        Path file = cycleFiles().getFirst();
        long position = excerptPositions(file).get(40);
        overwriteInt(file, position, 0x1234_5678);

        QueueVerification verification = verify();

        assertThat(verification.isIntact()).isFalse();
        assertThat(verification.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
            assertThat(finding.file()).isEqualTo(file);
            assertThat(finding.position()).isEqualTo(position);
            assertThat(finding.description()).contains("expected a record header").contains("40 excerpts before it");
        });
    }

    @Test
    void shouldReportAnIndexEntryThatPointsAtTheWrongRecord() throws IOException {
        writeQueue(1, 100);
        Path file = cycleFiles().getFirst();
        long indexBlock = indexBlockPositions(file).getFirst();
        List<Long> excerpts = excerptPositions(file);
        // slot 2 of the first secondary block holds the position of excerpt 2 * spacing (spacing 16 by default)
        overwriteLong(file, IndexDescriptor.secondaryEntryPosition(indexBlock, 2), excerpts.get(33));

        QueueVerification verification = verify();

        assertThat(verification.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
            // The entry's own position: what is damaged, and what a repair sets right.
            assertThat(finding.position()).isEqualTo(IndexDescriptor.secondaryEntryPosition(indexBlock, 2));
            assertThat(finding.description()).contains("index entry of excerpt 32");
        });
    }

    @Test
    void shouldReportAHoleInAnOlderCycleThatStopsEveryTailer() throws IOException {
        writeQueue(2, 10);
        Path older = cycleFiles().getFirst();
        long position = excerptPositions(older).get(4);
        overwriteInt(older, position, 0);

        QueueVerification verification = verify();

        assertThat(verification.isIntact()).isFalse();
        assertThat(verification.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
            assertThat(finding.file()).isEqualTo(older);
            assertThat(finding.position()).isEqualTo(position);
            assertThat(finding.description()).contains("older than the newest").contains("4 excerpts before it");
        });
    }

    @Test
    void shouldReportAHoleInTheNewestCycleWithRecordsWrittenAfterIt() throws IOException {
        writeQueue(1, 10);
        Path file = cycleFiles().getFirst();
        long position = excerptPositions(file).get(6);
        overwriteInt(file, position, 0);

        QueueVerification verification = verify();

        assertThat(verification.findings()).singleElement().satisfies(finding -> {
            assertThat(finding.severity()).isEqualTo(Severity.DAMAGE);
            assertThat(finding.position()).isEqualTo(position);
            assertThat(finding.description()).contains("unreachable").contains("6 excerpts before it");
        });
    }

    @Test
    void shouldReportAFileCutShort() throws IOException {
        writeQueue(1, 10);
        Path file = cycleFiles().getFirst();
        long lastExcerpt = excerptPositions(file).getLast();
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(lastExcerpt + 6); // in the middle of the last excerpt's payload
        }

        QueueVerification verification = verify();

        assertThat(verification.isIntact()).isFalse();
        assertThat(verification.findings()).anySatisfy(finding -> {
            assertThat(finding.file()).isEqualTo(file);
            assertThat(finding.position()).isEqualTo(lastExcerpt);
            assertThat(finding.description()).contains("cut short").contains("9 excerpts before it are readable");
        });
    }

    @Test
    void shouldOnlyNoteWhatTheEngineRepairsByItself() throws IOException {
        writeQueue(1, 10);
        Path file = cycleFiles().getFirst();
        long end = endOfData(file);
        overwriteInt(file, end, 0x8000_0000 | 24);
        Files.writeString(dir.resolve("20260501-080000.cq4.123.456.tmp"), "half a header");

        QueueVerification verification = verify();

        assertThat(verification.isIntact()).isTrue();
        assertThat(verification.findings()).extracting(QueueVerification.Finding::severity).containsOnly(Severity.NOTE);
        assertThat(verification.findings()).anySatisfy(finding -> {
            assertThat(finding.position()).isEqualTo(end);
            assertThat(finding.description()).contains("unfinished");
        });
        assertThat(verification.findings())
                .anySatisfy(finding -> assertThat(finding.description()).contains("temporary file"));
    }

    private void writeQueue(int cycles, int excerptsPerCycle) {
        MutableClock clock = new MutableClock(Instant.parse("2026-05-01T08:00:00Z"));
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).clock(clock).build();
             ExcerptAppender appender = queue.acquireAppender()) {
            for (int cycle = 0; cycle < cycles; cycle++) {
                for (int i = 0; i < excerptsPerCycle; i++) {
                    appender.writeText("excerpt " + cycle + "/" + i);
                }
                clock.advance(Duration.ofSeconds(1));
            }
        }
    }

    private QueueVerification verify() {
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).readOnly(true).build()) {
            return queue.verify();
        }
    }

    private String dumpOf(Path file) {
        try (MappedQueue queue = MappedQueue.builder(dir).rollCycle(RollCycle.TEST_SECONDLY).readOnly(true).build()) {
            String name = file.getFileName().toString();
            long cycle = RollCycle.TEST_SECONDLY.parseCycle(name.substring(0, name.length() - 4)).orElseThrow();
            StringBuilder out = new StringBuilder();
            queue.dumpCycle(cycle, out, (excerpt, text) -> text.append("..."));
            return out.toString();
        }
    }

    private List<Long> excerptPositions(Path file) {
        return positions(EXCERPT.matcher(dumpOf(file)));
    }

    private List<Long> indexBlockPositions(Path file) {
        return positions(INDEX_BLOCK.matcher(dumpOf(file)));
    }

    private long endOfData(Path file) {
        Matcher end = Pattern.compile("^@(\\d+) .*end of written data", Pattern.MULTILINE).matcher(dumpOf(file));
        assertThat(end.find()).isTrue();
        return Long.parseLong(end.group(1));
    }

    private static List<Long> positions(Matcher matcher) {
        return matcher.results().map(result -> Long.parseLong(result.group(1))).toList();
    }

    private List<Path> cycleFiles() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(path -> path.toString().endsWith(".cq4")).sorted().toList();
        }
    }

    private static void overwriteInt(Path file, long position, int value) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            raf.writeInt(Integer.reverseBytes(value));
        }
    }

    private static void overwriteLong(Path file, long position, long value) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(position);
            raf.writeLong(Long.reverseBytes(value));
        }
    }

    @Test
    void shouldFindNothingLeftBehindByExcerptsThatWereRolledBack() {
        try (MappedQueue queue = MappedQueue.builder(dir.resolve("rolled-back")).build();
             ExcerptAppender appender = queue.createAppender()) {
            appender.writeText("kept");
            try (WriteContext dc = appender.writingDocument()) {
                dc.bytes().writeLong(42).writeUtf8("then moved back over");
                dc.bytes().position(4);
                dc.rollbackOnClose();
            }
            assertThatThrownBy(() -> appender.writeDocument(bytes -> {
                bytes.writeLong(7);
                throw new IllegalStateException("the writer failed");
            })).isInstanceOf(IllegalStateException.class);
            assertThat(queue.verify().isIntact()).as(queue.verify().toString()).isTrue();
            appender.writeText("after");
            assertThat(queue.verify().isIntact()).isTrue();
        }
    }

    @Test
    void shouldFindNoDamageWhileAnotherThreadAppends() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(dir).blockSize(1 << 20).build()) {
            Thread writer = Thread.ofPlatform().start(() -> {
                try (ExcerptAppender appender = queue.acquireAppender()) {
                    for (int i = 0; i < 60_000; i++) {
                        appender.writeBytes(new byte[1_000 + i % 2_000]);
                    }
                }
            });
            List<String> findings = new ArrayList<>();
            int verifications = 0;
            while (writer.isAlive()) {
                queue.verify().findings().stream()
                        .filter(finding -> finding.severity() == QueueVerification.Severity.DAMAGE)
                        .forEach(finding -> findings.add(finding.toString()));
                verifications++;
            }
            writer.join();
            assertThat(verifications).isPositive();
            assertThat(findings).isEmpty();
            assertThat(queue.verify().excerptsChecked()).isEqualTo(60_000);
        }
    }
}
