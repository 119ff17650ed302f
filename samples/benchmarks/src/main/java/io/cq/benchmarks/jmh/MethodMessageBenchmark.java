package io.cq.benchmarks.jmh;

import io.cq.benchmarks.Directories;
import io.cq.benchmarks.messages.Order;
import io.cq.benchmarks.messages.OrderDto;
import io.cq.benchmarks.messages.OrderDtoEvents;
import io.cq.benchmarks.messages.OrderEvents;
import io.cq.benchmarks.messages.Tick;
import io.cq.benchmarks.messages.TickEvents;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.core.message.MethodReader;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * One thread and a method writer, a method reader or both: a self-written message (cq {@code BytesMessage},
 * Chronicle {@code BytesMarshallable}) and a self-describing document (cq: a record as CBOR through Jackson;
 * Chronicle: a {@code SelfDescribingMarshallable}). Run with {@code -prof gc} for bytes allocated per operation
 * (docs/messages.md).
 *
 * <ul>
 *   <li>{@link #writeAndRead()}: one message written and read back per operation, in a fresh queue per
 *       iteration;</li>
 *   <li>{@link #write()}: one message written per operation, in a fresh queue per iteration;</li>
 *   <li>{@link #read()}: one message read per operation from a queue of {@link #READ_QUEUE_MESSAGES} written
 *       before the trial, read again from the start when the reader reaches its end.</li>
 * </ul>
 */
@State(Scope.Thread)
public class MethodMessageBenchmark {
    /** Enough to make the return to the start rare (once per million reads), small enough to write in a second. */
    static final int READ_QUEUE_MESSAGES = 1 << 20;

    @Param({"cq", "chronicle"})
    public String implementation;

    @Param({"selfWritten", "document"})
    public String message;

    private Path directory;
    private AutoCloseable queue;
    private Runnable send;
    private BooleanSupplier receive;
    private Runnable rewind;
    private final Tick tick = new Tick();
    private long counter;
    private Blackhole sink;

    /** The read benchmark reads one queue for the whole trial: writing it takes longer than an iteration. */
    @Setup(Level.Trial)
    public void openForReading(Blackhole blackhole, BenchmarkParams params) {
        if (isRead(params)) {
            open(blackhole);
            for (int i = 0; i < READ_QUEUE_MESSAGES; i++) {
                send.run();
            }
        }
    }

    @Setup(Level.Iteration)
    public void openForWriting(Blackhole blackhole, BenchmarkParams params) {
        if (!isRead(params)) {
            open(blackhole);
        }
    }

    private static boolean isRead(BenchmarkParams params) {
        return params.getBenchmark().endsWith(".read");
    }

    private void open(Blackhole blackhole) {
        sink = blackhole;
        directory = BenchmarkDirectories.create("messages-" + implementation);
        if (implementation.equals("cq")) {
            openCq();
        } else {
            openChronicle();
        }
    }

    private void openCq() {
        MappedQueue q = MappedQueue.builder(directory).build();
        queue = q;
        ExcerptTailer tailer = q.createTailer();
        MethodReader reader;
        if (message.equals("selfWritten")) {
            TickEvents writer = Messages.methodWriter(q.createAppender(), TickEvents.class);
            send = () -> writer.tick(nextTick());
            TickEvents handler = t -> sink.consume(t.instrument);
            reader = Messages.methodReader(tailer, handler);
        } else {
            OrderEvents writer = Messages.methodWriter(q.createAppender(), OrderEvents.class);
            send = () -> writer.order(new Order("o-" + (counter & 1023), "AAPL", counter++, 189.25, Order.Side.BUY));
            OrderEvents handler = o -> sink.consume(o.quantity());
            reader = Messages.methodReader(tailer, handler);
        }
        receive = reader::readOne;
        rewind = tailer::toStart;
    }

    private void openChronicle() {
        SingleChronicleQueue q = SingleChronicleQueueBuilder.single(directory.toString())
                .rollCycle(RollCycles.FAST_DAILY).build();
        queue = q;
        net.openhft.chronicle.queue.ExcerptTailer tailer = q.createTailer();
        net.openhft.chronicle.bytes.MethodReader reader;
        if (message.equals("selfWritten")) {
            TickEvents writer = q.createAppender().methodWriter(TickEvents.class);
            send = () -> writer.tick(nextTick());
            TickEvents handler = t -> sink.consume(t.instrument);
            reader = tailer.methodReader(handler);
        } else {
            OrderDtoEvents writer = q.createAppender().methodWriter(OrderDtoEvents.class);
            send = () -> {
                // a new object per message, as with the record: what a caller of a document API does
                OrderDto o = new OrderDto();
                o.id = "o-" + (counter & 1023);
                o.symbol = "AAPL";
                o.quantity = counter++;
                o.price = 189.25;
                o.side = Order.Side.BUY;
                writer.order(o);
            };
            OrderDtoEvents handler = o -> sink.consume(o.quantity);
            reader = tailer.methodReader(handler);
        }
        receive = reader::readOne;
        rewind = tailer::toStart;
    }

    private Tick nextTick() {
        Tick t = tick;
        long i = counter++;
        t.instrument = i;
        t.bid = i * 0.5;
        t.ask = i * 0.5 + 0.25;
        t.size = (int) i;
        return t;
    }

    @TearDown(Level.Iteration)
    public void closeAfterWriting(BenchmarkParams params) throws Exception {
        if (!isRead(params)) {
            close();
        }
    }

    @TearDown(Level.Trial)
    public void closeAfterReading(BenchmarkParams params) throws Exception {
        if (isRead(params)) {
            close();
        }
    }

    private void close() throws Exception {
        queue.close();
        Directories.delete(directory);
    }

    @Benchmark
    public boolean writeAndRead() {
        send.run();
        return receive.getAsBoolean();
    }

    @Benchmark
    public void write() {
        send.run();
    }

    @Benchmark
    public boolean read() {
        if (receive.getAsBoolean()) {
            return true;
        }
        rewind.run();
        return receive.getAsBoolean();
    }
}
