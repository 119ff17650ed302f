package io.cq.spring.console;

import io.cq.core.DiskSpace;
import io.cq.core.MappedQueue;
import io.cq.spring.actuate.QueueDescriptor;
import org.jspecify.annotations.Nullable;

import java.time.Instant;

/**
 * One queue in the console: what the {@code queues} endpoint reports of it (with the same values hidden), and what
 * the console adds to say what the figures mean.
 *
 * @param name        its bean name, its key under {@code cq.queues}
 * @param queue       the endpoint's figures
 * @param disk        the free space of its file system and the threshold that turns the health DOWN
 * @param firstCycle  when the cycle of its first excerpt began (excerpts carry no time of their own), or null
 * @param lastCycle   when the cycle of its last excerpt began, or null
 * @param deadLetters whether it is a dead-letter queue: the excerpt browser shows its excerpts as dead letters
 */
public record QueueView(String name, QueueDescriptor queue, Disk disk, @Nullable Instant firstCycle,
                        @Nullable Instant lastCycle, boolean deadLetters) {

    /**
     * Why {@code allocatedBytes} reads -1: cq asks the file system through {@code stat}, a native call, which Java
     * allows only with native access.
     */
    public static final String ALLOCATED_UNKNOWN = "unknown: reading allocated blocks needs native access "
            + "(java --enable-native-access=ALL-UNNAMED, or Enable-Native-Access: ALL-UNNAMED in an executable jar's "
            + "manifest; docs/operations.md, \"Native access\")";

    /**
     * The queue's disk.
     *
     * @param usableBytes       bytes this process may still write on its file system
     * @param totalBytes        the file system's size
     * @param warningBytes      free bytes below which cq warns and the health turns DOWN (0: no threshold)
     * @param low               whether free space is below that threshold now
     * @param filesystem        the file system's type
     * @param local             whether it is a local file system (cq warns about network and FUSE ones)
     * @param allocatedUnknown  why allocated bytes are not known, or null when they are
     */
    public record Disk(long usableBytes, long totalBytes, long warningBytes, boolean low, String filesystem,
                       boolean local, @Nullable String allocatedUnknown) {
    }

    static QueueView of(String name, MappedQueue queue, QueueDescriptor descriptor, boolean deadLetters) {
        DiskSpace space = queue.diskSpace();
        Disk disk = new Disk(space.usableBytes(), space.totalBytes(), space.warningBytes(), space.low(),
                queue.filesystem().type(), queue.filesystem().isLocal(),
                descriptor.allocatedBytes() < 0 ? ALLOCATED_UNKNOWN : null);
        return new QueueView(name, descriptor, disk, cycleStart(queue, descriptor.firstIndex()),
                cycleStart(queue, descriptor.lastIndex()), deadLetters);
    }

    private static @Nullable Instant cycleStart(MappedQueue queue, long index) {
        return index < 0 ? null
                : Instant.ofEpochMilli(queue.cycleCalendar().cycleStartMillis(queue.rollCycle().toCycle(index)));
    }
}
