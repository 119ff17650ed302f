package io.cq.core.internal.message;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.assertj.core.api.Assertions.assertThat;

/** The record types file: entries found again by id, and an entry cut short by a crash never read. */
class MessageTypesTest {
    @TempDir
    Path dir;

    private static byte[][] names(String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i].getBytes(StandardCharsets.UTF_8);
        }
        return bytes;
    }

    @Test
    void shouldCutOffAnEntryCutShortByACrashBeforeAppendingTheNextDefinition() throws IOException {
        byte[][] first = names("symbol", "bid");
        byte[][] second = names("price", "size", "venueOfTheTradeWithALongName");
        long firstId = RecordPlan.typeId(first);
        long secondId = RecordPlan.typeId(second);
        assertThat(MessageTypes.of(dir).define(firstId, first)).isTrue();
        long whole = Files.size(dir.resolve(MessageTypes.FILE_NAME));
        // what a writer killed in the middle of its append leaves: a length and part of a body
        Files.write(dir.resolve(MessageTypes.FILE_NAME), new byte[] {40, 0, 0, 0, 1, 2, 3, 4, 5, 6},
                StandardOpenOption.APPEND);

        // another directory name for the same queue, so that this instance has not defined anything itself
        MessageTypes again = MessageTypes.of(dir.resolve("x").resolve(".."));
        assertThat(again.define(secondId, second)).isTrue();

        byte[] file = Files.readAllBytes(dir.resolve(MessageTypes.FILE_NAME));
        assertThat(file.length).isEqualTo(whole + MessageTypes.ENTRY_HEADER_SIZE + Long.BYTES + 1 + 1 + 5 + 1 + 4
                + 1 + "venueOfTheTradeWithALongName".length());
        assertThat(MessageTypes.of(dir).names(firstId)).isDeepEqualTo(first);
        assertThat(MessageTypes.of(dir).names(secondId)).isDeepEqualTo(second);
    }

    @Test
    void shouldNotDefineATypeWhereTheFileIsNoTypesFile() throws IOException {
        Files.writeString(dir.resolve(MessageTypes.FILE_NAME), "something else entirely");
        byte[][] names = names("a", "b");
        assertThat(MessageTypes.of(dir).define(RecordPlan.typeId(names), names)).isFalse();
        assertThat(Files.readString(dir.resolve(MessageTypes.FILE_NAME))).isEqualTo("something else entirely");
    }
}
