package io.cq.core.internal.async;

import io.cq.core.ExcerptBytes;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.StartPosition;
import io.cq.core.TailerDirection;
import io.cq.core.internal.layout.AsyncRingDescriptor;
import io.cq.core.internal.memory.SegmentCursor;
import io.cq.core.internal.queue.QueueContext;
import io.cq.core.internal.queue.StartPositions;
import io.cq.core.internal.queue.StoreTailer;

import java.lang.foreign.MemorySegment;

/**
 * A tailer of an async queue: reads the queue, and past its end the records of the async buffer that are not drained
 * yet, so an excerpt is read as soon as it is in the buffer (docs/file-format.md, "Async buffer"). Each record carries
 * the index it gets in the queue; once the queue has what was read from the buffer, the queue's copies are passed
 * over by index. Reading backward reads the queue only.
 *
 * <p>A named tailer's position moves as the queue's copies are passed: after a restart it reads again what it had
 * read from the buffer only.
 */
final class AsyncTailer implements ExcerptTailer {
    private static final int FOUND = 0;
    private static final int NOTHING = 1;
    private static final int IN_QUEUE = 2;

    private final StoreTailer tailer;
    private final AsyncRing ring;
    private final QueueContext queue;
    private final AsyncRing.DrainState drained = new AsyncRing.DrainState();
    private final SegmentCursor cursor = new SegmentCursor();
    private final BufferedContext context = new BufferedContext();
    private MemorySegment copy = MemorySegment.ofArray(new byte[256]);
    /** Whether excerpts were read from the buffer that the queue tailer has not passed yet. */
    private boolean ahead;
    /** While ahead: the index of the next excerpt to read. */
    private long next;
    /** Where the record after the last one read from the buffer is, or -1. */
    private long hint = -1;

    AsyncTailer(QueueContext queue, StoreTailer tailer, AsyncRing ring) {
        this.queue = queue;
        this.tailer = tailer;
        this.ring = ring;
    }

    @Override
    public ReadContext readingDocument() {
        if (context.open) {
            throw new IllegalStateException("this tailer already has an open read context: close it first");
        }
        if (tailer.direction() == TailerDirection.BACKWARD) {
            return tailer.readingDocument();
        }
        // The queue, then the buffer's records not drained yet. When the drainer has recorded one at or past the index
        // wanted, the queue has it or is about to publish it (it records before it publishes): the queue is read again,
        // and if it still has nothing from that index on, the record being drained is the next excerpt (everything
        // below it was published before it was recorded), read from the buffer, which keeps it until the queue has it.
        long wanted = -1;
        int looks = 0;
        while (true) {
            ReadContext read = tailer.readingDocument();
            if (read.isPresent()) {
                if (ahead && read.index() < next) {
                    read.close(); // read from the buffer already
                    continue;
                }
                ahead = false;
                return read;
            }
            if (looks == 2) {
                return read;
            }
            read.close();
            int found;
            if (looks == 0) {
                wanted = ahead ? next : tailer.index();
                found = readFromBuffer(wanted);
            } else {
                found = readRecordBeingDrained(wanted);
            }
            if (found == FOUND) {
                return context;
            }
            looks = found == NOTHING ? 2 : looks + 1;
        }
    }

    /** Finds the first record not drained whose index is at least {@code wanted}, and copies it out. */
    private int readFromBuffer(long wanted) {
        ring.readDrained(drained);
        if (drained.drainedIndex >= wanted) {
            return IN_QUEUE;
        }
        long position = hint >= drained.nextPosition ? hint : drained.nextPosition;
        long tail = ring.tail();
        while (position < tail) {
            int length = ring.lengthAt(position);
            if (length == AsyncRingDescriptor.PADDING) {
                position = ring.nextLap(position);
                continue;
            }
            long index = ring.indexAt(position);
            if (length < 0 || length > ring.maxExcerpt() || !ring.stillIntact(position)) {
                return IN_QUEUE; // drained and reused meanwhile: the queue has it
            }
            if (index >= wanted) {
                return copyOut(position, length, index);
            }
            position = ring.after(position, length);
        }
        return NOTHING;
    }

    /**
     * The record the drainer recorded as drained when {@link #readFromBuffer} last read its progress, if it is at or
     * past {@code wanted} and still in the buffer; {@code IN_QUEUE} once its space was freed (after the queue
     * published it) and reused. The progress read then is used, not a newer one: a record recorded since may come
     * after excerpts the queue published meanwhile.
     */
    private int readRecordBeingDrained(long wanted) {
        long position = drained.drainedPosition;
        if (drained.drainedIndex < wanted || !holds(position, drained.drainedIndex)) {
            return IN_QUEUE;
        }
        return copyOut(position, ring.lengthAt(position), drained.drainedIndex);
    }

    private int copyOut(long position, int length, long index) {
        if (copy.byteSize() < length) {
            copy = MemorySegment.ofArray(new byte[Math.max(length, (int) copy.byteSize() * 2)]);
        }
        MemorySegment.copy(ring.records(), ring.excerptOffset(position), copy, 0, length);
        if (!ring.stillIntact(position)) {
            return IN_QUEUE;
        }
        cursor.bindForRead(copy, 0, length);
        context.open = true;
        context.rollback = false;
        context.index = index;
        context.after = ring.after(position, length);
        return FOUND;
    }

    @Override
    public long index() {
        return ahead ? next : tailer.index();
    }

    @Override
    public ExcerptTailer toStart() {
        movedWhileReading();
        tailer.toStart();
        forgetBuffer();
        return this;
    }

    /** As in {@link StoreTailer}: a move while a buffered excerpt's context is open cancels its commit. */
    private void movedWhileReading() {
        if (context.open) {
            context.rollback = true;
        }
    }

    /** After the last excerpt added, in the buffer or in the queue. */
    @Override
    public ExcerptTailer toEnd() {
        movedWhileReading();
        tailer.toEnd();
        forgetBuffer();
        if (tailer.direction() == TailerDirection.FORWARD) {
            // The tail first: every record below it has an index at most the last index read after it.
            long tail = ring.tail();
            long last = ring.lastIndex();
            if (last >= tailer.index()) {
                ahead = true;
                next = last + 1;
                hint = tail;
            }
        }
        return this;
    }

    @Override
    public boolean moveToIndex(long index) {
        if (tailer.moveToIndex(index)) {
            movedWhileReading();
            forgetBuffer();
            return true;
        }
        if (index < 0) {
            return false;
        }
        ring.readDrained(drained);
        long found = -1;
        if (drained.drainedIndex == index && holds(drained.drainedPosition, index)) {
            found = drained.drainedPosition; // recorded as drained: the queue may not have published it yet
        } else {
            long tail = ring.tail();
            for (long position = drained.nextPosition; position < tail; ) {
                int length = ring.lengthAt(position);
                if (length != AsyncRingDescriptor.PADDING && holds(position, index)) {
                    found = position;
                    break;
                }
                position = ring.after(position, length);
            }
        }
        if (found < 0) {
            return false;
        }
        movedWhileReading();
        tailer.toEnd();
        if (tailer.index() > index) {
            // The queue published it meanwhile and the end is past it: the queue has it now.
            boolean moved = tailer.moveToIndex(index);
            forgetBuffer();
            return moved;
        }
        ahead = true;
        next = index;
        hint = found;
        return true;
    }

    /** Whether the buffer's record at {@code position} is the one of {@code index}, its bytes not reused. */
    private boolean holds(long position, long index) {
        int length = ring.lengthAt(position);
        return length >= 0 && length <= ring.maxExcerpt() && ring.indexAt(position) == index
                && ring.stillIntact(position);
    }

    @Override
    public boolean moveTo(StartPosition position) {
        return StartPositions.apply(this, queue.queue(), position);
    }

    @Override
    public ExcerptTailer direction(TailerDirection direction) {
        if (ahead && direction == TailerDirection.BACKWARD) {
            // Going backward reads the queue only: start from its end, where the buffer's excerpts will follow.
            tailer.toEnd();
        }
        tailer.direction(direction);
        forgetBuffer();
        return this;
    }

    @Override
    public TailerDirection direction() {
        return tailer.direction();
    }

    @Override
    public String name() {
        return tailer.name();
    }

    /** The excerpts after the position in the queue, and in the buffer beyond what is drained. */
    @Override
    public long lag() {
        long from = index();
        long last = queue.queue().lastIndex();
        long inQueue = last < 0 || last < from ? 0 : queue.queue().countExcerpts(from, last + 1);
        ring.readDrained(drained);
        long tail = ring.tail();
        long inBuffer = 0;
        for (long position = drained.nextPosition; position < tail; ) {
            int length = ring.lengthAt(position);
            if (length != AsyncRingDescriptor.PADDING && ring.indexAt(position) >= from
                    && ring.indexAt(position) > last) {
                inBuffer++;
            }
            position = ring.after(position, length);
        }
        return inQueue + inBuffer;
    }

    @Override
    public MappedQueue queue() {
        return tailer.queue();
    }

    @Override
    public void close() {
        context.open = false;
        tailer.close();
        queue.resources().remove(this);
    }

    private void forgetBuffer() {
        ahead = false;
        hint = -1;
    }

    /** An excerpt read from the buffer, copied out of it. */
    private final class BufferedContext implements ReadContext {
        boolean open;
        boolean rollback;
        long index;
        long after;

        @Override
        public boolean isPresent() {
            return open;
        }

        @Override
        public ExcerptBytes bytes() {
            return cursor;
        }

        @Override
        public long index() {
            return open ? index : -1;
        }

        @Override
        public void rollbackOnClose() {
            rollback = true;
        }

        @Override
        public void close() {
            if (!open) {
                return;
            }
            open = false;
            if (!rollback) {
                ahead = true;
                next = index + 1;
                hint = after;
            }
        }
    }
}
