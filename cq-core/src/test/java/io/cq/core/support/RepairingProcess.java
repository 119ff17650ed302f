package io.cq.core.support;

import io.cq.core.MappedQueue;
import io.cq.core.QueueRepair;

import java.nio.file.Path;

/**
 * Child-JVM main: repairs the queue in {@code args[0]} through {@link io.cq.core.MappedQueueBuilder#repair()}, as
 * {@code cq repair --skip-damaged} does, and prints what it did: "repaired skipped=n setAside=n reset=true|false".
 */
public final class RepairingProcess {
    private RepairingProcess() {
    }

    public static void main(String[] args) {
        QueueRepair repair = MappedQueue.builder(Path.of(args[0])).repair();
        System.out.println("repaired skipped=" + repair.skipped().size() + " setAside=" + repair.setAside().size()
                + " reset=" + (repair.cycleRangeReset() != null));
    }
}
