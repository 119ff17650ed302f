package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Child-JVM main: appends 1 KiB excerpts (each starting with its sequence number) to a queue on a small file system
 * until an append is refused, prints what was accepted and how it was refused, deletes {@code filler} to free
 * space, appends {@code 10} more, and closes the queue. Run with and without native access.
 */
public final class DiskFillingProcess {
    public static final int PAYLOAD = 1024;

    private DiskFillingProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path filler = Path.of(args[1]);
        byte[] payload = new byte[PAYLOAD - Long.BYTES];
        long accepted = 0;
        try (MappedQueue queue = MappedQueue.builder(dir).build(); ExcerptAppender appender = queue.createAppender()) {
            Throwable refusal = null;
            while (refusal == null) {
                long sequence = accepted;
                try {
                    appender.writeDocument(bytes -> bytes.writeLong(sequence).writeBytes(payload));
                    accepted++;
                } catch (Throwable e) {
                    refusal = e;
                }
            }
            System.out.println("accepted=" + accepted + " refusal=" + refusal.getClass().getName() + " cause="
                    + (refusal.getCause() == null ? "none" : refusal.getCause().getClass().getName()) + " message="
                    + refusal.getMessage().replace('\n', ' '));
            Files.delete(filler);
            for (int i = 0; i < 10; i++) {
                long sequence = accepted;
                appender.writeDocument(bytes -> bytes.writeLong(sequence).writeBytes(payload));
                accepted++;
            }
            System.out.println("resumed total=" + accepted);
        }
        System.out.println("closed");
    }
}
