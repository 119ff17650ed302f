package io.cq.core;

import io.cq.core.idle.IdleStrategy;
import io.cq.core.internal.layout.LockWordDescriptor;
import io.cq.core.internal.layout.TableStoreDescriptor;
import io.cq.core.internal.system.FilePermissions;
import io.cq.core.internal.table.TableStore;
import io.cq.core.internal.table.TableStores;
import io.cq.core.support.AppendingProcess;
import io.cq.core.support.ChildJvm;
import io.cq.core.support.ClaimNamedTailer;
import io.cq.core.support.NamedTailerProcess;
import io.cq.core.support.QueueCreator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Real second and third JVMs on the test class path, appending and tailing the same directory. */
class MultiProcessTest {
    @TempDir
    Path dir;

    private Path queueDir() {
        return dir.resolve("queue");
    }

    @Test
    void shouldTailExcerptsWhileAnotherJvmAppendsThem() throws Exception {
        int count = 50_000;
        Path go = dir.resolve("go");
        try (MappedQueue queue = MappedQueue.builder(queueDir()).blockSize(1 << 20).build();
             ChildJvm writer = ChildJvm.start(AppendingProcess.class, queueDir().toString(), "7",
                     Integer.toString(count),
                     go.toString())) {
            ExcerptTailer tailer = queue.createTailer();
            writer.awaitLine("ready", 60, TimeUnit.SECONDS);
            Files.createFile(go);
            IdleStrategy idle = IdleStrategy.backoff();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            int next = 0;
            while (next < count) {
                assertThat(System.nanoTime())
                        .as("still waiting for excerpt %d; child output:%n%s", next, writer.transcript())
                        .isLessThan(deadline);
                try (ReadContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        idle.idle();
                        continue;
                    }
                    idle.reset();
                    assertThat(dc.bytes().readInt()).isEqualTo(7);
                    assertThat(dc.bytes().readInt()).isEqualTo(next);
                    assertThat(dc.bytes().readLong()).isEqualTo(AppendingProcess.checksum(7, next));
                    next++;
                }
            }
            writer.awaitLine("done", 60, TimeUnit.SECONDS);
            assertThat(tailer.readBytes()).isNull();
        }
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {true, false})
    void shouldAccountForEveryExcerptWhenThreeJvmsAppendAtOnce(boolean nativeAccess) throws Exception {
        int writers = 3;
        int perWriter = 30_000;
        Path go = dir.resolve("go");
        List<ChildJvm> children = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                children.add(ChildJvm.start(nativeAccess, List.of(), AppendingProcess.class, queueDir().toString(),
                        Integer.toString(w), Integer.toString(perWriter), go.toString()));
            }
            for (ChildJvm child : children) {
                child.awaitLine("ready", 60, TimeUnit.SECONDS);
            }
            Files.createFile(go);
            for (ChildJvm child : children) {
                child.awaitLine("done", 180, TimeUnit.SECONDS);
                assertThat(child.awaitExit(60, TimeUnit.SECONDS)).as(child.transcript()).isZero();
            }
        } finally {
            for (ChildJvm child : children) {
                child.close();
            }
        }
        try (MappedQueue queue = MappedQueue.builder(queueDir()).readOnly(true).build()) {
            int[] next = new int[writers];
            int total = 0;
            ExcerptTailer tailer = queue.createTailer();
            long previousIndex = -1;
            while (true) {
                try (ReadContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        break;
                    }
                    assertThat(dc.index()).isGreaterThan(previousIndex);
                    previousIndex = dc.index();
                    int writer = dc.bytes().readInt();
                    int sequence = dc.bytes().readInt();
                    assertThat(sequence).as("writer %d", writer).isEqualTo(next[writer]);
                    assertThat(dc.bytes().readLong()).isEqualTo(AppendingProcess.checksum(writer, sequence));
                    next[writer]++;
                    total++;
                }
            }
            assertThat(next).containsOnly(perWriter);
            assertThat(total).isEqualTo(writers * perWriter);
            assertThat(queue.countExcerpts(queue.firstIndex(), queue.lastIndex() + 1)).isEqualTo(total);
            assertThat(queue.verify().findings()).as("three writers reserving blocks, with %s",
                    nativeAccess ? "fallocate" : "zeros written under the write lock").isEmpty();
        }
        // Every append took the write lock and counted in the write generation, with native access or without;
        // a closing last writer may take it once more to shrink the file (docs/file-format.md, "Appending").
        assertThat(writeGeneration()).isBetween((long) writers * perWriter, (long) writers * perWriter + writers);
    }

    private long writeGeneration() throws IOException {
        try (FileChannel channel = FileChannel.open(queueDir().resolve(TableStoreDescriptor.FILE_NAME))) {
            ByteBuffer buffer = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.nativeOrder());
            channel.read(buffer, LockWordDescriptor.WRITE_GENERATION_OFFSET);
            return buffer.getLong(0);
        }
    }

    @Test
    void shouldResumeANamedTailerAfterItsJvmIsKilled() throws Exception {
        try (MappedQueue queue = MappedQueue.builder(queueDir()).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            for (int i = 0; i < 100; i++) {
                appender.writeText("event " + i);
            }
            try (ChildJvm reader = ChildJvm.start(NamedTailerProcess.class, queueDir().toString(), "billing", "37")) {
                reader.awaitLine("holding", 60, TimeUnit.SECONDS);
                assertThatThrownBy(() -> queue.createTailer("billing"))
                        .isInstanceOf(NamedTailerInUseException.class)
                        .hasMessageContaining("pid " + reader.pid());
                assertThat(queue.namedTailer("billing").orElseThrow().held()).isTrue();
                try (MappedQueue readOnly = MappedQueue.builder(queueDir()).readOnly(true).build()) {
                    assertThat(readOnly.namedTailer("billing").orElseThrow().held()).isTrue();
                }
                reader.kill();
            }
            assertThat(queue.namedTailer("billing").orElseThrow().held()).isFalse();
            try (ExcerptTailer resumed = queue.createTailer("billing")) {
                assertThat(resumed.readText()).isEqualTo("event 37");
            }
        }
    }

    /**
     * The process that created a queue once lost every lock it held on the table store about 100 ms after start:
     * the blocks were reserved in the background through a second descriptor, and closing a descriptor drops all
     * of a process's fcntl locks on the file. Its process slot then looked dead, and a waiting writer took its write
     * lock over while it was still writing.
     */
    @Test
    void shouldKeepTheLocksOfTheProcessThatCreatedTheQueue() throws Exception {
        Path queueDir = dir.resolve("created-by-child");
        try (ChildJvm creator = ChildJvm.start(QueueCreator.class, queueDir.toString(), "billing")) {
            creator.awaitLine("ready", 60, TimeUnit.SECONDS);
            // The lost locks were lost some 100 ms after start, by background work the child does not report:
            // give that window time to pass (nothing here can be awaited instead).
            Thread.sleep(500);

            try (ChildJvm other = ChildJvm.start(ClaimNamedTailer.class, queueDir.toString(), "billing")) {
                assertThat(other.awaitLine("result:", 60, TimeUnit.SECONDS)).startsWith("result: in use");
            }
            TableStore store = TableStores.open(queueDir, false, RollCycle.DAILY, System.currentTimeMillis(),
                    FilePermissions.ownerOnly());
            try {
                assertThat(store.processSlot()).isEqualTo(1);
                assertThat(store.processSlots().isAlive(0)).as("the creator's process slot").isTrue();
            } finally {
                store.release(true);
            }
        }
    }
}
