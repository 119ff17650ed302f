package io.cq.core.internal.file;

import io.cq.core.internal.layout.CycleHeaderDescriptor;
import io.cq.core.internal.layout.ExcerptHeaderDescriptor;
import io.cq.core.internal.layout.IndexDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ranges a finished cycle gives back are exactly the whole pages after the last written slot of the primary index
 * and of the last secondary block, never a byte more (docs/file-format.md, "Unused index space"). Checked on files
 * made by hand, slot by slot, at the page boundaries where an off-by-one would show.
 */
class UnusedIndexRangesTest {
    private static final int INDEX_COUNT = 4096;
    private static final long PAGE = 4096;
    private static final long DATA_START = CycleHeaderDescriptor.dataStart(INDEX_COUNT);
    private static final int BLOCK_LENGTH = IndexDescriptor.indexBlockLength(INDEX_COUNT);

    @TempDir
    Path dir;

    @Test
    void shouldGiveBackThePrimaryIndexPastTheHeaderPageOfAFileWithNoBlock() throws IOException {
        Path file = new CycleFile(DATA_START).finish();
        assertThat(ranges(file)).containsExactly(new long[] {PAGE, DATA_START & -PAGE});
    }

    @Test
    void shouldGiveBackThePagesPastTheOneOfTheLastWrittenEntry() throws IOException {
        for (long blockPosition : new long[] {DATA_START, DATA_START + 4}) {
            long entries = IndexDescriptor.secondaryEntryPosition(blockPosition, 0);
            // The last entry as the first slot of a page, as the last slot of a page, and as the very first slot.
            int firstOfAPage = (int) ((((entries + PAGE) & -PAGE) - entries) / Long.BYTES);
            for (int last : new int[] {0, firstOfAPage, firstOfAPage - 1, firstOfAPage + 511}) {
                CycleFile cycle = new CycleFile(DATA_START).primary(0, blockPosition).block(blockPosition);
                for (int slot = 0; slot <= last; slot++) {
                    cycle.entry(blockPosition, slot, blockPosition + 1000 + slot);
                }
                Path file = cycle.finish();
                long lastEnd = entries + (last + 1L) * Long.BYTES;
                assertThat(ranges(file)).as("block at %s, last entry %s", blockPosition, last).containsExactly(
                        new long[] {PAGE, DATA_START & -PAGE},
                        new long[] {(lastEnd + PAGE - 1) & -PAGE, (entries + INDEX_COUNT * 8L) & -PAGE});
            }
        }
    }

    @Test
    void shouldKeepThePageOfTheLastWrittenPrimarySlot() throws IOException {
        // Slot 479 ends where page 1 begins; slot 480 begins there.
        for (int lastBlock : new int[] {479, 480}) {
            CycleFile cycle = new CycleFile(DATA_START);
            for (int block = 0; block < lastBlock; block++) {
                cycle.primary(block, DATA_START);
            }
            cycle.primary(lastBlock, DATA_START).block(DATA_START).entry(DATA_START, 0, DATA_START + BLOCK_LENGTH + 4);
            long slotEnd = IndexDescriptor.primaryEntryOffset(lastBlock + 1);
            assertThat(ranges(cycle.finish()).getFirst()).as("last block %s", lastBlock)
                    .containsExactly((slotEnd + PAGE - 1) & -PAGE, DATA_START & -PAGE);
        }
    }

    @Test
    void shouldTakeTheLastWrittenEntryEvenWithAnUnwrittenOneBeforeIt() throws IOException {
        CycleFile cycle = new CycleFile(DATA_START).primary(0, DATA_START).block(DATA_START);
        for (int slot = 0; slot < 700; slot++) {
            if (slot != 5 && slot != 600) {
                cycle.entry(DATA_START, slot, DATA_START + 2000 + slot); // a writer died before entries 5 and 600
            }
        }
        long lastEnd = IndexDescriptor.secondaryEntryPosition(DATA_START, 700);
        assertThat(ranges(cycle.finish()).get(1)[0]).isEqualTo((lastEnd + PAGE - 1) & -PAGE);
    }

    @Test
    void shouldGiveBackOnlyThePrimaryIndexWhenItsLastSlotPointsAtNoIndexBlock() throws IOException {
        for (long odd : new long[] {12_345, DATA_START + 2, DATA_START + 8}) {
            // Below the records, misaligned, and a record position where no index block starts.
            Path file = new CycleFile(DATA_START).primary(0, odd).finish();
            assertThat(ranges(file)).as("slot pointing at %s", odd)
                    .containsExactly(new long[] {PAGE, DATA_START & -PAGE});
        }
    }

    @Test
    void shouldGiveBackNothingOfAFileThatIsNotAFinishedCycleFile() throws IOException {
        assertThat(ranges(new CycleFile(DATA_START).primary(0, DATA_START).block(DATA_START).write(false)))
                .as("no end-of-cycle mark: an appender may still write entries").isEmpty();
        Path foreign = dir.resolve("foreign.cq4");
        Files.write(foreign, new byte[(int) DATA_START + 4]);
        assertThat(ranges(foreign)).as("no cycle-file header").isEmpty();
        Path shorter = dir.resolve("short.cq4");
        Files.write(shorter, new byte[100]);
        assertThat(ranges(shorter)).as("shorter than a header").isEmpty();
    }

    /** The ranges, after checking what any answer must satisfy: whole pages of zeros past the header page. */
    private static List<long[]> ranges(Path file) throws IOException {
        List<long[]> ranges;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            ranges = UnusedIndexSpace.unusedRanges(channel, PAGE);
        }
        byte[] bytes = Files.readAllBytes(file);
        for (long[] range : ranges) {
            assertThat(range[0] % PAGE).isZero();
            assertThat(range[1] % PAGE).isZero();
            assertThat(range[0]).isGreaterThanOrEqualTo(PAGE).isLessThan(range[1]);
            assertThat(range[1]).isLessThanOrEqualTo(bytes.length);
            for (long at = range[0]; at < range[1]; at++) {
                assertThat(bytes[(int) at]).as("byte %s of a range given back", at).isZero();
            }
        }
        return ranges;
    }

    /** A cycle file as cq writes one, made slot by slot; records are bytes that are not zero. */
    private final class CycleFile {
        private final ByteBuffer bytes;
        private long end;

        CycleFile(long dataStart) {
            bytes = ByteBuffer.allocate((int) (dataStart + BLOCK_LENGTH + 2 * PAGE + 64))
                    .order(ByteOrder.LITTLE_ENDIAN);
            bytes.putLong((int) CycleHeaderDescriptor.MAGIC_OFFSET, CycleHeaderDescriptor.MAGIC);
            bytes.putInt((int) CycleHeaderDescriptor.FORMAT_VERSION_OFFSET, CycleHeaderDescriptor.FORMAT_VERSION);
            bytes.putInt((int) CycleHeaderDescriptor.HEADER_LENGTH_OFFSET, CycleHeaderDescriptor.HEADER_LENGTH);
            bytes.putInt((int) CycleHeaderDescriptor.INDEX_COUNT_OFFSET, INDEX_COUNT);
            bytes.putInt((int) CycleHeaderDescriptor.INDEX_SPACING_OFFSET, 16);
            bytes.putLong((int) CycleHeaderDescriptor.DATA_START_OFFSET, dataStart);
            end = dataStart;
        }

        CycleFile primary(int block, long position) {
            bytes.putLong((int) IndexDescriptor.primaryEntryOffset(block), position);
            return this;
        }

        /** An index block at {@code position}, then a record of non-zero bytes after it. */
        CycleFile block(long position) {
            bytes.putInt((int) position, ExcerptHeaderDescriptor.meta(BLOCK_LENGTH));
            long after = ExcerptHeaderDescriptor.align(position + ExcerptHeaderDescriptor.SIZE + BLOCK_LENGTH);
            bytes.putInt((int) after, ExcerptHeaderDescriptor.data(60));
            for (int i = 0; i < 60; i++) {
                bytes.put((int) after + ExcerptHeaderDescriptor.SIZE + i, (byte) (i + 1));
            }
            end = after + ExcerptHeaderDescriptor.SIZE + 60;
            return this;
        }

        CycleFile entry(long blockPosition, int slot, long position) {
            bytes.putLong((int) IndexDescriptor.secondaryEntryPosition(blockPosition, slot), position);
            return this;
        }

        Path finish() throws IOException {
            return write(true);
        }

        /** The file, cut just after its end-of-cycle mark as a finished cycle is, or without the mark. */
        Path write(boolean finished) throws IOException {
            if (finished) {
                bytes.putInt((int) end, ExcerptHeaderDescriptor.END_OF_CYCLE);
            }
            Path file = Files.createTempFile(dir, "cycle", ".cq4");
            Files.write(file, Arrays.copyOf(bytes.array(), (int) end + ExcerptHeaderDescriptor.SIZE));
            return file;
        }
    }
}
