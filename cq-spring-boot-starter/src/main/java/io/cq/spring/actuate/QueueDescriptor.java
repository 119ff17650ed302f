package io.cq.spring.actuate;

import io.cq.core.QueueResources;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Map;

/**
 * What {@code /actuator/queues/{name}} reports about one queue. Indexes are given in decimal and in hex (where the
 * cycle and the sequence number are easy to tell apart); a hex value is null where the index is -1 (none).
 *
 * @param path          the queue's directory; {@value #HIDDEN} unless values are shown
 * @param rollCycle     the roll cycle in force
 * @param readOnly      whether this application opened it read-only
 * @param durability    when appends reach storage
 * @param firstIndex    index of the first excerpt, or -1 when empty
 * @param firstIndexHex the same in hex
 * @param lastIndex     index of the last excerpt, or -1 when empty
 * @param lastIndexHex  the same in hex
 * @param currentCycle  the cycle the queue's clock is in
 * @param files         cycle files in the directory
 * @param apparentBytes the files' lengths added up (cycle files, table store), what {@code ls -l} shows: not what
 *                      they take on disk, as the newest cycle file is mapped whole blocks ahead of its writer and
 *                      stays sparse there (allocatedBytes is what they take)
 * @param diskFreeBytes bytes this process may still write on the queue's file system
 * @param namedTailers  every named tailer, listeners' included
 * @param listeners     the listeners of this application that read the queue
 * @param adapters      the Spring Integration adapters of this application on the queue (none without that module)
 * @param settings      every setting the queue runs with ({@code QueueSettings.describe()}), by name
 * @param writtenBytes  bytes holding the queue's data (table store, headers, indexes, records)
 * @param allocatedBytes bytes of disk allocated to the queue's files, what {@code du} counts; -1 without native
 *                      access, which reading them takes (docs/operations.md, "Native access" and "Disk usage")
 * @param resources     what the queue holds in this application now: open appenders, tailers and files, mapped bytes
 * @param writers       the processes that have the queue open for writing now (this one included), and which
 *                      of them holds the write lock; their pid and host hidden unless values are shown
 * @param codecs        what the queue does to each excerpt (checksums, compression, encryption), never a key
 */
public record QueueDescriptor(String path, String rollCycle, boolean readOnly, String durability, long firstIndex,
                              @Nullable String firstIndexHex, long lastIndex, @Nullable String lastIndexHex,
                              long currentCycle, int files,
                              long apparentBytes, long diskFreeBytes, List<NamedTailerDescriptor> namedTailers,
                              List<ListenerDescriptor> listeners, List<AdapterDescriptor> adapters,
                              Map<String, String> settings, long writtenBytes, long allocatedBytes,
                              QueueResources resources, List<WriterDescriptor> writers, CodecsDescriptor codecs) {

    /**
     * What stands in for a value the reader may not see ({@code management.endpoint.queues.show-values}), as in
     * Spring Boot's own endpoints.
     */
    public static final String HIDDEN = "******";

    static @Nullable String hex(long index) {
        return index < 0 ? null : "0x" + Long.toHexString(index);
    }

    /**
     * One named tailer as persisted in the queue's table store.
     *
     * @param name         its name (a listener's id for listeners)
     * @param nextIndex    index of the next excerpt it reads, or -1 for the start of the queue
     * @param nextIndexHex the same in hex
     * @param holder       which live tailer holds the name (pid, host and thread), or empty; {@value #HIDDEN}
     *                     for a held name unless values are shown
     * @param lag          excerpts from its position to the end of the queue
     */
    public record NamedTailerDescriptor(String name, long nextIndex, @Nullable String nextIndexHex, String holder,
                                        long lag) {
    }

    /**
     * A process that has the queue open for writing.
     *
     * @param processSlot    its slot in the queue's table store
     * @param pid            its process id, or null when values are hidden
     * @param host           its host name, or {@value #HIDDEN} when values are hidden
     * @param holdsWriteLock whether it holds the write lock now
     */
    public record WriterDescriptor(int processSlot, @Nullable Long pid, String host, boolean holdsWriteLock) {
    }

    /**
     * The codecs the queue was created with, as recorded in its files ({@code ExcerptCodecs}); no key, no key store.
     *
     * @param description          {@code ExcerptCodecs.describe()}, e.g. "AES-GCM encryption (current key id
     *                             0x1a2b3c4d), LZ4 compression from 128 bytes", or "none"
     * @param checksums            whether each excerpt carries a CRC-32C checksum
     * @param compression          NONE, LZ4 or DEFLATE
     * @param compressionThreshold excerpts shorter than this many bytes are stored uncompressed; 0 without compression
     * @param encrypted            whether excerpts are encrypted (AES-GCM)
     * @param keysGiven            whether this application has the queue's keys (false for a read-only queue opened
     *                             without them); false when not encrypted
     * @param currentKeyId         the id of the key new excerpts are encrypted with, in hex, or null when not
     *                             encrypted or without keys
     */
    public record CodecsDescriptor(String description, boolean checksums, String compression,
                                   int compressionThreshold, boolean encrypted, boolean keysGiven,
                                   @Nullable String currentKeyId) {
    }

    /**
     * One listener container.
     *
     * @param id           the listener's id
     * @param queue        the queue it reads
     * @param state        CREATED, RUNNING, PAUSED, STOPPED or FAILED
     * @param nextIndex    index of the next excerpt it reads, as of its last excerpt
     * @param nextIndexHex the same in hex
     * @param lag          excerpts it has not processed yet
     * @param processed    excerpts processed since start-up
     * @param failed       excerpts whose retries ran out since start-up
     * @param retries      repeated calls since start-up
     */
    public record ListenerDescriptor(String id, String queue, String state, long nextIndex,
                                     @Nullable String nextIndexHex, long lag, long processed, long failed,
                                     long retries) {
    }

    /**
     * One Spring Integration adapter (docs/spring-integration.md).
     *
     * @param id           the adapter's id, for readers also its named tailer
     * @param kind         INBOUND_CHANNEL_ADAPTER, MESSAGE_SOURCE, OUTBOUND_ADAPTER, DURABLE_CHANNEL...
     * @param state        RUNNING, PAUSED or STOPPED
     * @param nextIndex    for readers, the index of the next excerpt as persisted; -1 otherwise
     * @param nextIndexHex the same in hex
     * @param lag          for readers, excerpts not processed yet; 0 otherwise
     * @param processed    messages handled since start-up
     * @param failed       messages that failed since start-up
     */
    public record AdapterDescriptor(String id, String kind, String state, long nextIndex,
                                    @Nullable String nextIndexHex, long lag, long processed, long failed) {
    }
}
