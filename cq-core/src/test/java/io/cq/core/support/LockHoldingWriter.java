package io.cq.core.support;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import io.cq.core.WriteContext;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Child-JVM main: holds the write lock when told to. Reads commands from standard input: {@code hold} opens an
 * excerpt and writes its first half ("held-N" then, on {@code finish}, " complete"), printing {@code holding};
 * {@code finish} completes it and prints {@code finished}; end of input exits.
 */
public final class LockHoldingWriter {
    private LockHoldingWriter() {
    }

    public static void main(String[] args) throws Exception {
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build();
             ExcerptAppender appender = queue.createAppender();
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            System.out.println("ready");
            WriteContext open = null;
            int held = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.equals("hold") && open == null) {
                    open = appender.writingDocument();
                    open.bytes().writeBytes(("held-" + held++).getBytes(StandardCharsets.UTF_8));
                    System.out.println("holding");
                } else if (line.equals("finish") && open != null) {
                    open.bytes().writeBytes(" complete".getBytes(StandardCharsets.UTF_8));
                    open.close();
                    open = null;
                    System.out.println("finished");
                }
            }
        }
    }
}
