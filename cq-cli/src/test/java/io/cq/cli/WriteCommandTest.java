package io.cq.cli;

import io.cq.cli.fixtures.Trading;
import io.cq.core.MappedQueue;
import io.cq.core.message.Messages;
import io.cq.core.message.MethodReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.cq.cli.CqCliTest.cq;
import static org.assertj.core.api.Assertions.assertThat;

class WriteCommandTest {
    @TempDir
    Path dir;

    /** What a reader of the interface receives. */
    private final List<String> received = new ArrayList<>();

    private final Trading.Events handler = new Trading.Events() {
        @Override
        public void onOrder(Trading.Order order) {
            received.add("order " + order);
        }

        @Override
        public void onCancel(String orderId, long atNanos) {
            received.add("cancel " + orderId + " " + atNanos);
        }

        @Override
        public void onTick(Trading.Tick tick) {
            received.add("tick " + tick.instrument);
        }
    };

    private void readAll(Path queue) {
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build()) {
            MethodReader reader = Messages.methodReader(q.createTailer(), handler);
            while (reader.readOne()) {
                // every call lands in received
            }
        }
    }

    private Path emptyQueue() {
        Path queue = dir.resolve("q");
        MappedQueue.builder(queue).build().close();
        return queue;
    }

    @Test
    void shouldAppendOneCallPerYamlDocumentThatAReaderOfTheInterfaceReceives() throws IOException {
        Path queue = emptyQueue();
        Path yaml = Files.writeString(dir.resolve("orders.yaml"), """
                id: o-1
                symbol: AAPL
                quantity: 100
                price: 189.25
                side: BUY
                ---
                id: o-2
                symbol: MSFT
                quantity: 5
                price: 420.5
                side: SELL
                """);

        CqCliTest.Run run = cq("write", queue.toString(), "onOrder", yaml.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.lines()).hasSize(2).allMatch(line -> line.matches("0x[0-9a-f]+"));
        readAll(queue);
        assertThat(received).containsExactly(
                "order Order[id=o-1, symbol=AAPL, quantity=100, price=189.25, side=BUY]",
                "order Order[id=o-2, symbol=MSFT, quantity=5, price=420.5, side=SELL]");
    }

    @Test
    void shouldTakeArgumentListsFromAJsonFile() throws IOException {
        Path queue = emptyQueue();
        Path json = Files.writeString(dir.resolve("cancels.json"), "[\"o-1\", 42]\n[\"o-2\", 5000000000]");

        CqCliTest.Run fromFile = cq("write", queue.toString(), "onCancel", json.toString());

        assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
        readAll(queue);
        assertThat(received).containsExactly("cancel o-1 42", "cancel o-2 5000000000");
    }

    @Test
    void shouldReadStdinWhenNoFileIsGiven() {
        Path queue = emptyQueue();
        InputStream stdin = System.in;
        CqCliTest.Run fromStdin;
        try {
            System.setIn(new ByteArrayInputStream("[\"o-3\", 7]".getBytes(StandardCharsets.UTF_8)));
            fromStdin = cq("write", queue.toString(), "onCancel");
        } finally {
            System.setIn(stdin);
        }

        assertThat(fromStdin.exitCode()).as(fromStdin.err()).isZero();
        readAll(queue);
        assertThat(received).containsExactly("cancel o-3 7");
    }

    @Test
    void shouldConvertArgumentsToTheInterfaceTypesWithDashR() throws IOException {
        Path queue = emptyQueue();
        Path yaml = Files.writeString(dir.resolve("tick.yaml"), "instrument: 7\nbid: 1.5\nask: 1.75\n");

        CqCliTest.Run run = cq("write", "-r", Trading.Events.class.getName(), queue.toString(), "onTick",
                yaml.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        readAll(queue);
        assertThat(received).containsExactly("tick 7");
        assertThat(cq("tail", "-r", Trading.Events.class.getName(), queue.toString()).lines())
                .containsExactly("onTick [{\"ask\":1.75,\"bid\":1.5,\"instrument\":7}]");
    }

    @Test
    void shouldExplainBadInputWithoutWritingAnything() throws IOException {
        Path queue = emptyQueue();
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "id: [unclosed\n");

        CqCliTest.Run badYaml = cq("write", queue.toString(), "onOrder", broken.toString());
        Path valid = Files.writeString(dir.resolve("valid.yaml"), "id: o-1\n");
        CqCliTest.Run unknownMethod = cq("write", "-r", Trading.Events.class.getName(), queue.toString(), "onTrade",
                valid.toString());
        CqCliTest.Run noQueue = cq("write", dir.resolve("nothing").toString(), "onOrder", broken.toString());

        assertThat(badYaml.exitCode()).isEqualTo(2);
        assertThat(badYaml.err()).contains(broken + " is not valid YAML");
        assertThat(unknownMethod.exitCode()).isEqualTo(2);
        assertThat(unknownMethod.err()).contains("has no method onTrade; it has onCancel, onOrder, onTick");
        assertThat(noQueue.err()).contains("does not exist");
        assertThat(cq("stats", queue.toString()).out()).contains("excerpts     0");
    }

    @Test
    void shouldRefuseYamlAliasesWithoutWritingAnything() throws IOException {
        Path queue = emptyQueue();
        Path bomb = Files.writeString(dir.resolve("bomb.yaml"), String.join("\n",
                "a: &a [x, x, x, x, x, x, x, x, x]",
                "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
                "c: [*b, *b, *b, *b, *b, *b, *b, *b, *b]", ""));

        CqCliTest.Run run = cq("write", queue.toString(), "onOrder", bomb.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("uses the YAML alias *a (line 2)").contains("aliases are not supported");
        assertThat(cq("stats", queue.toString()).out()).contains("excerpts     0");
    }

    @Test
    void shouldCreateTheQueueWhenAskedTo() throws IOException {
        Path queue = dir.resolve("new-queue");
        Path yaml = Files.writeString(dir.resolve("cancel.yaml"), "[o-9, 1]\n");

        CqCliTest.Run run = cq("write", "--create", queue.toString(), "onCancel", yaml.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        readAll(queue);
        assertThat(received).containsExactly("cancel o-9 1");
    }

    @Test
    void shouldCreateNoQueueWhenTheInputDoesNotConvert() throws IOException {
        Path queue = dir.resolve("not-made");
        Path tick = Files.writeString(dir.resolve("bad-tick.yaml"), "instrument: not-a-number\n");

        CqCliTest.Run run = cq("write", "--create", "-r", Trading.Events.class.getName(), queue.toString(), "onTick",
                tick.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("does not convert to");
        assertThat(queue).doesNotExist();
    }

    @Test
    void shouldNameTheLineAndColumnOfBadJsonInOneLine() throws IOException {
        Path queue = emptyQueue();
        Path json = Files.writeString(dir.resolve("bad.json"), "{\"a\": 1,\n \"b\": }\n");

        CqCliTest.Run badJson = cq("write", queue.toString(), "onOrder", json.toString());

        assertThat(badJson.exitCode()).isEqualTo(2);
        assertThat(badJson.err()).startsWith("cq write: " + json + " is not valid JSON: Unexpected character")
                .endsWith("(line 2, column 7)\n");
        assertThat(cq("stats", queue.toString()).out()).contains("excerpts     0");
    }

    @Test
    void shouldNameTheLineAndColumnOfBadYamlInOneLine() throws IOException {
        Path queue = emptyQueue();
        Path yaml = Files.writeString(dir.resolve("bad.yaml"), "a: [1, 2\nb: 3\n");

        CqCliTest.Run badYaml = cq("write", queue.toString(), "onOrder", yaml.toString());

        assertThat(badYaml.err()).isEqualTo("cq write: " + yaml + " is not valid YAML: while parsing a flow sequence; "
                + "expected ',' or ']', but got : (line 2, column 2)\n");
        assertThat(cq("stats", queue.toString()).out()).contains("excerpts     0");
    }
}
