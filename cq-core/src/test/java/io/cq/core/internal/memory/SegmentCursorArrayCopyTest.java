package io.cq.core.internal.memory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Byte arrays go into and out of excerpts the same way whether or not this JVM has linked the JDK's array copies
 * yet (before it has, they are copied as heap segments: see {@code SegmentCursor}). Seeded random lengths and
 * offsets, including empty copies and copies that end at the array's end.
 */
class SegmentCursorArrayCopyTest {
    private static final long SEED = 0xC0_9E5L;

    /**
     * The first copy that takes the other way starts linking the JDK's copies, once per JVM, on a thread that sets
     * the flag when it is done: done here first, so that it cannot set the flag in the middle of a case below.
     */
    @BeforeAll
    static void linkedOnceByTheFirstCopy() {
        try (Arena arena = Arena.ofConfined()) {
            SegmentCursor cursor = new SegmentCursor();
            cursor.bindForWrite(arena.allocate(64), 0, 64, 1 << 20, 0, 1 << 20, end -> end);
            cursor.writeBytes(new byte[8]);
        }
        await().until(FfmWarmUp::arrayCopiesLinked);
    }

    @AfterEach
    void linkedAgain() {
        FfmWarmUp.arrayCopiesLinked(true);
    }

    @ParameterizedTest(name = "array copies linked: {0}, into and out of {1} memory")
    @CsvSource({"false, native", "true, native", "false, heap", "true, heap"})
    void shouldWriteAndReadByteArraysWhetherOrNotTheJdksArrayCopiesAreLinked(boolean linked, String memory) {
        FfmWarmUp.arrayCopiesLinked(linked);
        Random random = new Random(SEED + (linked ? 1 : 0) + memory.length());
        try (Arena arena = Arena.ofConfined()) {
            // Native, as a mapped file is; a byte array's, as an appender's compose buffer and an async tailer's are.
            MemorySegment segment = memory.equals("heap") ? MemorySegment.ofArray(new byte[8192])
                    : arena.allocate(8192);
            SegmentCursor cursor = new SegmentCursor();
            for (int i = 0; i < 500; i++) {
                byte[] source = new byte[1 + random.nextInt(600)];
                random.nextBytes(source);
                int offset = random.nextInt(source.length);
                int length = i % 50 == 0 ? 0 : random.nextInt(source.length - offset + 1);
                long base = random.nextInt(4096);
                segment.fill((byte) 0x5A);
                cursor.bindForWrite(segment, base, 4096, 1 << 20, 0, 1 << 20, end -> end);
                cursor.writeLong(i).writeBytes(source, offset, length);

                assertThat(segment.asSlice(base + Long.BYTES, length).toArray(ValueLayout.JAVA_BYTE))
                        .as("written, copy %d", i).isEqualTo(Arrays.copyOfRange(source, offset, offset + length));
                assertThat(segment.get(ValueLayout.JAVA_BYTE, base + Long.BYTES + length))
                        .as("nothing written past the copy").isEqualTo((byte) 0x5A);

                byte[] into = new byte[length + 16];
                // Read-only, as a reader maps a cycle file.
                cursor.bindForRead(segment.asReadOnly(), base, Long.BYTES + length);
                assertThat(cursor.readLong()).isEqualTo(i);
                cursor.readBytes(into, 8, length);
                assertThat(Arrays.copyOfRange(into, 8, 8 + length)).as("read, copy %d", i)
                        .isEqualTo(Arrays.copyOfRange(source, offset, offset + length));
                assertThat(into).startsWith(new byte[8]).endsWith(new byte[8]);
            }
        }
    }
}
