package io.cq.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import static io.cq.cli.CqCliTest.cq;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An interface that is not on the tool's class path, given with {@code -cp}: loaded by a class loader of its own,
 * in another module than cq, as a service's interfaces are when the tool inspects its queue.
 */
class SeparateClassPathTest {
    @TempDir
    Path dir;

    private Path compileInterface() throws IOException {
        Path sources = Files.createDirectories(dir.resolve("src/com/example/desk"));
        Path source = Files.writeString(sources.resolve("DeskEvents.java"), """
                package com.example.desk;

                public interface DeskEvents {
                    void onQuote(String symbol, double bid, double ask, long sequence);
                }
                """);
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac.run(null, null, null, "-d", classes.toString(), source.toString())).isZero();
        return classes;
    }

    @Test
    void shouldWriteAndTailThroughAnInterfaceLoadedFromTheClassPathOption() throws IOException {
        Path classes = compileInterface();
        Path queue = dir.resolve("q");
        Path quotes = Files.writeString(dir.resolve("quotes.yaml"),
                "[AAPL, 189.1, 189.2, 1]\n---\n[MSFT, 420.1, 420.3, 2]\n");

        CqCliTest.Run write = cq("write", "--create", "-r", "com.example.desk.DeskEvents", "-cp", classes.toString(),
                queue.toString(), "onQuote", quotes.toString());
        CqCliTest.Run tail = cq("tail", "-s", "-r", "com.example.desk.DeskEvents", "-cp", classes.toString(),
                queue.toString());

        assertThat(write.exitCode()).as(write.err()).isZero();
        assertThat(tail.exitCode()).as(tail.err()).isZero();
        assertThat(tail.lines()).hasSize(2);
        assertThat(tail.lines().get(0)).matches("0x[0-9a-f]+ onQuote \\[\"AAPL\",189.1,189.2,1]");
        assertThat(tail.lines().get(1)).endsWith("onQuote [\"MSFT\",420.1,420.3,2]");
    }

    @Test
    void shouldAppendNothingWhenOneDocumentDoesNotConvert() throws IOException {
        Path classes = compileInterface();
        Path queue = dir.resolve("q");
        Path quotes = Files.writeString(dir.resolve("quotes.yaml"),
                "[AAPL, 189.1, 189.2, 1]\n---\n[MSFT, not-a-price, 420.3, 2]\n");

        CqCliTest.Run write = cq("write", "--create", "-r", "com.example.desk.DeskEvents", "-cp", classes.toString(),
                queue.toString(), "onQuote", quotes.toString());

        assertThat(write.exitCode()).isEqualTo(2);
        assertThat(write.err()).contains("argument 2 of onQuote does not convert to double");
        assertThat(queue).as("nothing appended, and --create made no queue for it").doesNotExist();
    }
}
