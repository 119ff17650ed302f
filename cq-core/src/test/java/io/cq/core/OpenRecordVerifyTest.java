package io.cq.core;

import io.cq.core.support.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record written in place keeps the free mark in its header while its payload is written after it
 * (docs/file-format.md, "Appending", step 5). Bytes after the free mark are then the excerpt of the write-lock holder:
 * {@code verify} says nothing of them while the holder lives, notes them as an excerpt never published once it is
 * dead, and the next append writes over them.
 */
class OpenRecordVerifyTest {
    private static final long SEED = 0x5EED_0F_0BE7L;

    @TempDir
    Path dir;

    @Test
    void shouldFindNothingWrongWhileALiveWriterFillsItsRecord() {
        Random random = new Random(SEED);
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender();
             ExcerptTailer tailer = queue.createTailer()) {
            int before = 1 + random.nextInt(50);
            for (int i = 0; i < before; i++) {
                appender.writeText("excerpt " + i);
            }
            // Zeros first, as a payload may start, then bytes that are not: further on than a page after the end.
            byte[] payload = new byte[8_192 + random.nextInt(8_000)];
            random.nextBytes(payload);
            Arrays.fill(payload, 0, 4_096 + random.nextInt(4_000), (byte) 0);
            payload[payload.length - 1] = 1;
            try (WriteContext open = appender.writingDocument()) {
                open.bytes().writeBytes(payload);
                assertThat(queue.verify().findings()).isEmpty();
                assertThat(queue.dump()).contains("bytes of an excerpt being written after the end");
                for (int i = 0; i < before; i++) {
                    assertThat(tailer.readText()).isEqualTo("excerpt " + i);
                }
                try (ReadContext nothing = tailer.readingDocument()) {
                    assertThat(nothing.isPresent()).isFalse();
                }
            }
            try (ReadContext last = tailer.readingDocument()) {
                assertThat(last.isPresent()).isTrue();
                assertThat(last.bytes().length()).isEqualTo(payload.length);
            }
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    @Test
    void shouldNoteTheRecordOfAWriterThatDiedWritingItAndWriteOverIt() throws Exception {
        Path queueDir = dir.resolve("q");
        int before = 3 + new Random(SEED + 1).nextInt(20);
        // Without native access, as a plain java -jar runs: the writer reserves by writing zeros then.
        try (ChildJvm writer = ChildJvm.start(false, List.of(), DyingWriter.class, queueDir.toString(),
                Integer.toString(before))) {
            writer.awaitLine("holding", 60, TimeUnit.SECONDS);
            try (MappedQueue queue = MappedQueue.builder(queueDir).readOnly(true).build()) {
                assertThat(queue.verify().findings()).as("while the writer lives").isEmpty();
            }
            writer.kill();
        }
        try (MappedQueue queue = MappedQueue.builder(queueDir).build()) {
            QueueVerification verification = queue.verify();
            assertThat(verification.isIntact()).isTrue();
            assertThat(queue.dump()).contains("left unfinished by a writer that stopped");
            assertThat(verification.findings()).singleElement().satisfies(finding -> {
                assertThat(finding.severity()).isEqualTo(QueueVerification.Severity.NOTE);
                assertThat(finding.description()).contains("left unfinished").contains("never published");
            });
            try (ExcerptAppender appender = queue.createAppender(); ExcerptTailer tailer = queue.createTailer()) {
                // Takes over the dead writer's lock; this excerpt is longer than what the dead writer left.
                appender.writeText("after the writer died, written over what it left behind ".repeat(4));
                for (int i = 0; i < before; i++) {
                    assertThat(tailer.readText()).isEqualTo(DyingWriter.text(i));
                }
                assertThat(tailer.readText()).startsWith("after the writer died");
                assertThat(tailer.readText()).isNull();
            }
            assertThat(queue.verify().findings()).isEmpty();
        }
    }

    /**
     * Child-JVM main: appends {@code args[1]} excerpts, then writes part of another in place and stays so, holding
     * the write lock and printing {@code holding}, until killed.
     */
    public static final class DyingWriter {
        private DyingWriter() {
        }

        static String text(int i) {
            return "excerpt " + i + " of the writer that dies";
        }

        public static void main(String[] args) {
            MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build();
            ExcerptAppender appender = queue.createAppender();
            int before = Integer.parseInt(args[1]);
            for (int i = 0; i < before; i++) {
                appender.writeText(text(i));
            }
            WriteContext open = appender.writingDocument();
            open.bytes().writeUtf8("never published, half written");
            System.out.println("holding");
            while (true) {
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        }
    }
}
