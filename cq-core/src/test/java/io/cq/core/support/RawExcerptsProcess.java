package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.WriteContext;
import io.cq.core.message.Messages;

import java.nio.file.Path;

/**
 * Child-JVM main: uses the engine only (raw, text, byte and cursor-lambda excerpts, appended and read), then
 * prints "done"; the test reads the JVM's class-loading log to see that no Jackson class was loaded. With a
 * second argument {@code messages} it also writes and reads one object, the control that shows the log would
 * reveal Jackson.
 */
public final class RawExcerptsProcess {
    private RawExcerptsProcess() {
    }

    public static void main(String[] args) {
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).blockSize(1 << 20).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            try (WriteContext context = appender.writingDocument()) {
                context.bytes().writeUtf8("AAPL").writeLong(100);
            }
            appender.writeText("text");
            appender.writeBytes(new byte[] {1, 2, 3});
            appender.writeDocument(bytes -> bytes.writeInt(42));

            ExcerptTailer tailer = queue.createTailer("raw");
            try (ReadContext context = tailer.readingDocument()) {
                context.bytes().readUtf8();
            }
            tailer.readText();
            tailer.readBytes();
            int[] read = new int[1];
            tailer.readDocument(bytes -> read[0] = bytes.readInt());
            if (args.length > 1 && args[1].equals("messages")) {
                Messages.writeObject(appender, java.util.List.of("x"));
                Messages.readObject(tailer, java.util.List.class);
            }
            System.out.println("done " + read[0] + " " + queue.dump().length());
        }
    }
}
