package io.cq.spring.listener;

import io.cq.core.ExcerptTailer;

import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * Moves of a container's tailer asked for from any thread (seeks) and run by the container's thread, which alone
 * owns the tailer: a tailer is not thread-safe, and a seek must not land in the middle of an excerpt.
 */
final class ContainerCommands {
    private final Queue<Function<ExcerptTailer, Runnable>> commands = new ConcurrentLinkedQueue<>();

    /** Queues a move; the future completes with its result once the container's thread has run it. */
    CompletableFuture<Boolean> add(Function<ExcerptTailer, Boolean> move) {
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        commands.add(tailer -> () -> {
            try {
                result.complete(move.apply(tailer));
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** Runs every queued move on this tailer; called by the container's thread only. @return how many ran */
    int runAll(ExcerptTailer tailer) {
        int ran = 0;
        for (Function<ExcerptTailer, Runnable> command = commands.poll(); command != null; command = commands.poll()) {
            command.apply(tailer).run();
            ran++;
        }
        return ran;
    }
}
