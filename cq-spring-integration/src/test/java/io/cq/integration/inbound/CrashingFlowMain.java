package io.cq.integration.inbound;

import io.cq.core.MappedQueue;
import io.cq.integration.Flows;
import io.cq.integration.dsl.Cq;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.messaging.MessageHandler;

import java.nio.file.Path;

/**
 * Child JVM of {@link AtLeastOnceAfterCrashTest}: tails the queue in {@code args[0]} with the adapter "crashy"
 * and dies like {@code kill -9} ({@code Runtime.halt}, no shutdown hooks) while its flow handles "b".
 */
public final class CrashingFlowMain {
    static final int EXIT_IN_FLOW = 37;

    private CrashingFlowMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        MappedQueue queue = MappedQueue.builder(Path.of(args[0])).build();
        MessageHandler dieOnB = message -> {
            if ("b".equals(message.getPayload())) {
                Runtime.getRuntime().halt(EXIT_IN_FLOW);
            }
        };
        Flows.run(IntegrationFlow.from(Cq.inboundAdapter(queue).id("crashy")).handle(dieOnB).get());
        Thread.sleep(60_000);
        System.exit(1);                                  // never reached "b": the test fails on the exit code
    }
}
