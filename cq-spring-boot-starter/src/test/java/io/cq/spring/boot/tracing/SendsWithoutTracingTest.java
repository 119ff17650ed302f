package io.cq.spring.boot.tracing;

import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.message.Messages;
import io.cq.core.message.TextHeaders;
import io.cq.spring.boot.tracing.TracedApplication.Order;
import io.cq.spring.boot.tracing.TracedApplication.OrderEvents;
import io.cq.spring.core.QueueTemplate;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** Without a tracer nothing travels in the excerpts: they are byte for byte what they were before tracing. */
class SendsWithoutTracingTest {
    @TempDir
    Path dir;

    @Test
    void shouldWriteNoHeadersWithoutAnObservationRegistry() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            QueueTemplate template = new QueueTemplate(Map.of("orders", queue));
            template.append("orders", new Order("o-1", 1));
            template.methodWriter("orders", OrderEvents.class).placed(new Order("o-2", 2));

            assertThat(headersOfEachExcerpt(queue)).containsExactly(Map.of(), Map.of());
        }
    }

    @Test
    void shouldObserveEachSendButWriteNoHeadersWhenNoTracerHandlesTheObservations() {
        List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }

            @Override
            public void onStop(Observation.Context context) {
                stopped.add(context);
            }
        });
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            QueueTemplate template = new QueueTemplate(Map.of("orders", queue), registry);
            long index = template.append("orders", new Order("o-1", 1));
            template.appendText("orders", "text");
            template.methodWriter("orders", OrderEvents.class).placed(new Order("o-2", 2));

            assertThat(headersOfEachExcerpt(queue)).containsExactly(Map.of(), Map.of(), Map.of());
            assertThat(stopped).hasSize(3).allSatisfy(context -> {
                assertThat(context.getName()).isEqualTo("cq.send");
                assertThat(context.getLowCardinalityKeyValues()).contains(KeyValue.of("queue", "orders"));
            });
            assertThat(stopped.getFirst().getHighCardinalityKeyValue("cq.index").getValue())
                    .isEqualTo("0x" + Long.toHexString(index));
        }
    }

    private static List<Map<String, String>> headersOfEachExcerpt(MappedQueue queue) {
        List<Map<String, String>> all = new CopyOnWriteArrayList<>();
        ExcerptTailer tailer = queue.createTailer();
        TextHeaders headers = new TextHeaders();
        while (true) {
            try (ReadContext context = tailer.readingDocument()) {
                if (!context.isPresent()) {
                    return all;
                }
                Messages.readHeaders(context, headers);
                all.add(headers.toMap());
            }
        }
    }
}
