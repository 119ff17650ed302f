package io.cq.core.support;

import io.cq.core.MappedQueue;
import io.cq.core.NamedTailerInUseException;

import java.nio.file.Path;

/** Child-JVM main: tries once to take a named tailer and prints "result: claimed" or "result: in use: message". */
public final class ClaimNamedTailer {
    private ClaimNamedTailer() {
    }

    public static void main(String[] args) {
        try (MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build()) {
            queue.createTailer(args[1]).close();
            System.out.println("result: claimed");
        } catch (NamedTailerInUseException e) {
            System.out.println("result: in use: " + e.getMessage());
        }
    }
}
