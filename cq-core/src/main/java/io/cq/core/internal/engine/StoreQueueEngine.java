package io.cq.core.internal.engine;

import io.cq.core.MappedQueue;
import io.cq.core.QueueEngine;
import io.cq.core.QueueSettings;
import io.cq.core.RollCycle;
import io.cq.core.internal.async.RingFront;
import io.cq.core.internal.layout.BlockDescriptor;
import io.cq.core.internal.memory.FfmWarmUp;
import io.cq.core.internal.queue.AsyncFront;
import io.cq.core.internal.queue.QueueContext;
import io.cq.core.internal.queue.StoreQueue;
import io.cq.core.internal.settings.SettingsCheck;
import io.cq.core.internal.system.FilePermissions;

import java.time.LocalTime;
import java.util.function.LongSupplier;

/**
 * The engine behind {@link io.cq.core.MappedQueueBuilder}: it installs itself when the builder loads it by name
 * (docs/architecture.md, "The API and the engine"), and starts the FFM warm-up then, the first thing a process that
 * opens a queue does (docs/notes/performance-journal.md, start-up).
 */
public final class StoreQueueEngine implements QueueEngine, AsyncFront.Opener {
    static {
        FfmWarmUp.startInBackground();
        QueueEngine.install(new StoreQueueEngine());
    }

    private StoreQueueEngine() {
    }

    @Override
    public MappedQueue open(QueueSettings settings, boolean rollCycleChosen, boolean rollTimeChosen,
                            boolean asyncChosen, boolean codecsChosen, boolean repairing) {
        SettingsCheck.check(settings);
        return new StoreQueue(settings, rollCycleChosen, rollTimeChosen, asyncChosen, codecsChosen, repairing,
                this);
    }

    /**
     * Opens an async queue's front: the one place the plain engine and the async one meet. Here, not in a class of
     * the async engine, so that opening a plain queue loads none of its classes (StartupClassesTest).
     */
    @Override
    public AsyncFront open(QueueContext queue, FilePermissions permissions, LongSupplier lastIndex, boolean writable,
                           boolean drain) {
        return RingFront.open(queue, permissions, lastIndex, writable, drain);
    }

    @Override
    public long smallestBlockSize(RollCycle rollCycle) {
        return BlockDescriptor.smallestBlockSize(rollCycle);
    }

    @Override
    public LocalTime rollTime(LocalTime time) {
        return SettingsCheck.wholeMilliseconds(time);
    }
}
