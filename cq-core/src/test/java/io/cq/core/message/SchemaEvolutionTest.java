package io.cq.core.message;

import io.cq.core.ExcerptAppender;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SchemaEvolutionTest {
    @TempDir
    Path dir;

    @Test
    void shouldLetANewerReaderReadWhatAnOlderWriterWrote() {
        List<io.cq.core.message.v2.OrderEvents.Order> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            Messages.methodWriter(queue.acquireAppender(), io.cq.core.message.v1.OrderEvents.class)
                    .onOrder(new io.cq.core.message.v1.OrderEvents.Order("o-1", "AAPL", 100, "ann"));

            io.cq.core.message.v2.OrderEvents newer = seen::add;
            assertThat(Messages.methodReader(queue.createTailer(), newer).readOne()).isTrue();
        }
        // removed field ignored, added fields absent (null), int read as long
        assertThat(seen).containsExactly(new io.cq.core.message.v2.OrderEvents.Order("o-1", "AAPL", 100L, null, null));
    }

    @Test
    void shouldLetAnOlderReaderReadWhatANewerWriterWrote() {
        List<io.cq.core.message.v1.OrderEvents.Order> seen = new ArrayList<>();
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            ExcerptAppender appender = queue.acquireAppender();
            Messages.methodWriter(appender, io.cq.core.message.v2.OrderEvents.class).onOrder(
                    new io.cq.core.message.v2.OrderEvents.Order("o-2", "MSFT", 7, new BigDecimal("420.50"),
                    List.of("dark")));

            io.cq.core.message.v1.OrderEvents older = seen::add;
            MethodReader reader = Messages.methodReader(queue.createTailer(), older);
            assertThat(reader.readOne()).isTrue();
            assertThat(reader.messagesRead()).isEqualTo(1);
        }
        // unknown fields (limit, tags) skipped, the removed one (trader) absent
        assertThat(seen).containsExactly(new io.cq.core.message.v1.OrderEvents.Order("o-2", "MSFT", 7, null));
    }
}
