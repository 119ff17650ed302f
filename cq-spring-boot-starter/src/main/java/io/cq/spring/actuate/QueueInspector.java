package io.cq.spring.actuate;

import io.cq.core.MappedQueue;
import io.cq.core.NamedTailerPosition;
import io.cq.core.QueueDiskUsage;
import io.cq.core.codec.EncryptionKeys;
import io.cq.core.codec.ExcerptCodecs;
import io.cq.spring.actuate.QueueDescriptor.CodecsDescriptor;
import io.cq.spring.actuate.QueueDescriptor.ListenerDescriptor;
import io.cq.spring.actuate.QueueDescriptor.NamedTailerDescriptor;
import io.cq.spring.actuate.QueueDescriptor.WriterDescriptor;
import io.cq.spring.listener.QueueListenerContainer;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.stream.Stream;

/** Reads the figures of a queue and its listeners for the endpoint, from any thread. */
final class QueueInspector {
    private QueueInspector() {
    }

    /** @param showValues whether the reader may see paths, process ids and host names */
    static QueueDescriptor describe(MappedQueue queue, Collection<QueueListenerContainer> listeners,
                                    @Nullable QueueAdapters adapters, boolean showValues) {
        long first = queue.firstIndex();
        long last = queue.lastIndex();
        QueueDiskUsage disk = queue.diskUsage();
        List<NamedTailerDescriptor> tailers = queue.namedTailers().stream()
                .map(position -> describe(queue, position, last, showValues)).toList();
        List<ListenerDescriptor> listenerDescriptors = listeners.stream().filter(c -> c.queue() == queue)
                .map(QueueInspector::describe).toList();
        List<WriterDescriptor> writers = queue.writerProcesses().stream()
                .map(writer -> new WriterDescriptor(writer.processSlot(), showValues ? writer.pid() : null,
                        showValues ? writer.host() : QueueDescriptor.HIDDEN, writer.holdsWriteLock()))
                .toList();
        String path = showValues ? queue.path().toString() : QueueDescriptor.HIDDEN;
        return new QueueDescriptor(path, queue.rollCycle().name(), queue.isReadOnly(), queue.durability().name(),
                first, QueueDescriptor.hex(first), last, QueueDescriptor.hex(last), queue.currentCycle(),
                queue.cycles().size(), apparentBytes(queue.path()), queue.diskSpace().usableBytes(),
                tailers, listenerDescriptors, adapters == null ? List.of() : adapters.adaptersOf(queue.path()),
                queue.settings().describe(), disk.writtenBytes(), disk.allocatedBytes(), queue.resources(), writers,
                describe(queue.settings().codecs()));
    }

    /** Which codecs are on, and the current key's id: never a key, nor where the keys come from. */
    static CodecsDescriptor describe(ExcerptCodecs codecs) {
        EncryptionKeys keys = codecs.keys();
        return new CodecsDescriptor(codecs.describe(), codecs.checksums(), codecs.compression().name(),
                codecs.compressionThreshold(), codecs.encrypted(), keys != null,
                keys == null ? null : String.format("0x%08x", keys.currentKeyId()));
    }

    static ListenerDescriptor describe(QueueListenerContainer container) {
        return new ListenerDescriptor(container.id(), container.queueName(), container.state().name(),
                container.nextIndex(), QueueDescriptor.hex(container.nextIndex()), container.lag(),
                container.processedCount(), container.failedCount(), container.retryCount());
    }

    private static NamedTailerDescriptor describe(MappedQueue queue, NamedTailerPosition position, long last,
                                                  boolean showValues) {
        long next = position.nextIndex();
        long lag = last < 0 ? 0 : queue.countExcerpts(Math.max(0, next), last + 1);
        String holder = showValues || !position.held() ? position.holder() : QueueDescriptor.HIDDEN;
        return new NamedTailerDescriptor(position.name(), next, QueueDescriptor.hex(next), holder, lag);
    }

    private static long apparentBytes(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(QueueInspector::size).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            // deleted by retention between listing and sizing
            return 0;
        }
    }
}
