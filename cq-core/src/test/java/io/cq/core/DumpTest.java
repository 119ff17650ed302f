package io.cq.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DumpTest {
    @TempDir
    Path dir;

    @Test
    void shouldListHeaderIndexAndEachExcerptAsTextOrHex() {
        try (MappedQueue queue = MappedQueue.builder(dir).build()) {
            long text = queue.acquireAppender().writeText("hello dump");
            long binary = queue.acquireAppender().writeBytes(new byte[] {0, 1, (byte) 0xff});
            queue.createTailer("billing").readText();

            String dump = queue.dump();
            assertThat(dump).contains("roll cycle: DAILY");
            assertThat(dump).contains("named tailer 'billing': next index 0x" + Long.toHexString(text + 1));
            assertThat(dump).contains(queue.rollCycle().fileName(queue.currentCycle()) + ".cq4");
            assertThat(dump).contains("index block");
            assertThat(dump).containsPattern("0x" + Long.toHexString(text) + " @\\d+ \\(10 bytes\\) \"hello dump\"");
            assertThat(dump).containsPattern("0x" + Long.toHexString(binary) + " @\\d+ \\(3 bytes\\) 0001ff");
            assertThat(dump).contains("(end of written data)");
        }
    }
}
