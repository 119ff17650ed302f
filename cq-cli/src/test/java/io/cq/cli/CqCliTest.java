package io.cq.cli;

import io.cq.core.ExcerptAppender;
import io.cq.core.ExcerptTailer;
import io.cq.core.MappedQueue;
import io.cq.core.ReadContext;
import io.cq.core.RollCycle;
import io.cq.core.WriteContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class CqCliTest {
    @TempDir
    Path dir;

    /** What one invocation printed and returned. */
    record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return out.lines().toList();
        }
    }

    static Run cq(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = CqCli.commandLine(args);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }

    private Path queueOf(String... texts) {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            for (String text : texts) {
                appender.writeText(text);
            }
        }
        return queue;
    }

    private static long[] indexesOf(Path queue) {
        try (MappedQueue q = MappedQueue.builder(queue).readOnly(true).build();
                ExcerptTailer tailer = q.createTailer()) {
            return Stream.generate(() -> {
                try (ReadContext context = tailer.readingDocument()) {
                    return context.isPresent() ? context.index() : -1L;
                }
            }).takeWhile(index -> index >= 0).mapToLong(Long::longValue).toArray();
        }
    }

    @Test
    void shouldTailEveryExcerptInOrder() {
        Path queue = queueOf("alpha", "beta", "gamma");

        Run run = cq("tail", queue.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).containsExactly("alpha", "beta", "gamma");
    }

    @Test
    void shouldStartAtAHexIndexShowingIndexesWithDashS() {
        Path queue = queueOf("alpha", "beta", "gamma");
        long[] indexes = indexesOf(queue);

        Run hex = cq("tail", "-s", "-n", "0x" + Long.toHexString(indexes[1]), queue.toString());

        assertThat(hex.lines()).containsExactly("0x" + Long.toHexString(indexes[1]) + " beta",
                "0x" + Long.toHexString(indexes[2]) + " gamma");
    }

    @Test
    void shouldStartAtADecimalIndex() {
        Path queue = queueOf("alpha", "beta", "gamma");
        long[] indexes = indexesOf(queue);

        Run decimal = cq("tail", "-n", Long.toString(indexes[2]), queue.toString());

        assertThat(decimal.lines()).containsExactly("gamma");
    }

    @Test
    void shouldShowTheRightIndexOfEachExcerptAcrossACycleRoll() {
        Path queue = dir.resolve("q");
        Instant start = Instant.parse("2026-11-22T10:00:00Z");
        for (int second = 0; second < 2; second++) {
            Clock clock = Clock.fixed(start.plusSeconds(second), ZoneOffset.UTC);
            try (MappedQueue q = MappedQueue.builder(queue).rollCycle(RollCycle.TEST_SECONDLY).clock(clock).build();
                 ExcerptAppender appender = q.acquireAppender()) {
                appender.writeText("cycle " + second + " a");
                appender.writeText("cycle " + second + " b");
            }
        }
        long[] indexes = indexesOf(queue);

        Run run = cq("tail", "-s", queue.toString());

        assertThat(indexes).hasSize(4);
        assertThat(run.lines()).containsExactly(
                "0x" + Long.toHexString(indexes[0]) + " cycle 0 a", "0x" + Long.toHexString(indexes[1]) + " cycle 0 b",
                "0x" + Long.toHexString(indexes[2]) + " cycle 1 a", "0x" + Long.toHexString(indexes[3]) + " cycle 1 b");
    }

    @Test
    void shouldRefuseAnIndexTheQueueDoesNotHoldSayingWhatItHolds() {
        Path queue = queueOf("alpha");

        Run run = cq("tail", "-n", "0x7fff", queue.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("no excerpt with index 0x7fff").contains("it holds 0x");
    }

    @Test
    void shouldShowTheLastExcerpts() {
        Path queue = queueOf("buy 1", "sell 2", "buy 3", "buy 4", "sell 5");

        assertThat(cq("tail", "-m", "2", queue.toString()).lines()).containsExactly("buy 4", "sell 5");
    }

    @Test
    void shouldShowEveryExcerptWhenAskedForMoreLastOnesThanTheQueueHolds() {
        Path queue = queueOf("buy 1", "sell 2", "buy 3", "buy 4", "sell 5");

        assertThat(cq("tail", "-m", "99", queue.toString()).lines()).hasSize(5);
    }

    @Test
    void shouldFilterByIncludeAndExclude() {
        Path queue = queueOf("buy 1", "sell 2", "buy 3", "buy 4", "sell 5");

        assertThat(cq("tail", "-i", "^buy", "-e", "3", queue.toString()).lines()).containsExactly("buy 1", "buy 4");
    }

    @Test
    void shouldPrintMultiLineExcerptsOnOneLineWithDashL() {
        Path queue = queueOf("first line\nsecond line");

        assertThat(cq("tail", queue.toString()).lines()).containsExactly("first line", "second line");
        assertThat(cq("tail", "-l", queue.toString()).lines()).containsExactly("first line\\nsecond line");
    }

    @Test
    void shouldPrintJsonLinesWithIndexTextAndBytes() {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            appender.writeText("hello \"world\"");
            appender.writeBytes(new byte[] {0, 1, 2, (byte) 0xFF});
        }

        Run run = cq("tail", "--format", "json", queue.toString());

        assertThat(run.lines()).hasSize(2);
        assertThat(run.lines().get(0)).matches("\\{\"index\":\"0x[0-9a-f]+\",\"text\":\"hello \\\\\"world\\\\\"\"}");
        assertThat(run.lines().get(1)).endsWith("\"bytes\":\"AAEC/w==\"}");
    }

    @Test
    void shouldFollowTheEndUntilTheLimitWhileAnotherThreadAppends() throws Exception {
        Path queue = queueOf("before");
        CompletableFuture<Run> tail;
        // The writer opens first: in one JVM a queue opened read-only (the tail's) cannot then be opened to write.
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            tail = CompletableFuture.supplyAsync(() -> cq("tail", "-f", "--limit", "4", queue.toString()));
            for (int i = 1; i <= 3; i++) {
                Thread.sleep(20); // a writer that appends while the tail follows, not all before it starts
                appender.writeText("after " + i);
            }
        }

        assertThat(tail.get().lines()).containsExactly("before", "after 1", "after 2", "after 3");
    }

    @Test
    void shouldDumpTheWholeQueueOrOneCycleFile() throws IOException {
        Path queue = queueOf("alpha", "beta");
        Path cycleFile;
        try (Stream<Path> files = Files.list(queue)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }

        Run whole = cq("dump", queue.toString());
        Run one = cq("dump", cycleFile.toString());

        assertThat(whole.exitCode()).isZero();
        assertThat(whole.out()).contains("roll cycle: DAILY").contains("\"alpha\"").contains("\"beta\"");
        assertThat(one.out()).contains("## " + cycleFile.getFileName()).contains("\"beta\"");
    }

    @Test
    void shouldReportStatsWithTheLagOfNamedTailers() {
        Path queue = queueOf("a", "b", "c", "d", "e");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptTailer billing = q.createTailer("billing")) {
            billing.readText();
            billing.readText();
        }

        Run text = cq("stats", queue.toString());
        Run json = cq("stats", "--format", "json", queue.toString());

        assertThat(text.exitCode()).isZero();
        assertThat(text.out()).contains("roll cycle   DAILY").contains("excerpts     5").contains("billing  next 0x")
                .contains("lag 3");
        assertThat(json.out()).contains("\"excerpts\" : 5").contains("\"name\" : \"billing\"").contains("\"lag\" : 3");
        assertThat(text.out()).contains("settings     rollCycle=DAILY, clock=").contains("readOnly=true")
                .containsPattern("disk         \\d+ bytes written, \\d+ bytes allocated");
        assertThat(json.out()).containsPattern("\"writtenBytes\" : \\d+").containsPattern("\"allocatedBytes\" : \\d+");
        assertThat(text.out()).containsPattern("file system  \\S+ \\(local\\)");
        assertThat(json.out()).contains("\"locality\" : \"LOCAL\"").contains("\"local\" : true");
        assertThat(json.out()).contains("\"settings\" : {").contains("\"readOnly\" : \"true\"")
                .contains("\"indexSpacing\" : \"16\"");
    }

    @Test
    void shouldSayThatNoProcessWritesAnIdleQueue() {
        Path queue = queueOf("a");
        Run idle = cq("stats", queue.toString());
        assertThat(idle.out()).contains("writers      none");
    }

    @Test
    void shouldNameTheProcessWritingTheQueueThatHoldsTheWriteLock() {
        Path queue = queueOf("a");

        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.createAppender();
             WriteContext open = appender.writingDocument()) {
            open.bytes().writeLong(1);
            Run text = cq("stats", queue.toString());
            Run json = cq("stats", "--format", "json", queue.toString());

            assertThat(text.out()).containsPattern("writers      pid " + ProcessHandle.current().pid()
                    + " on \\S+ \\(holds the write lock\\)");
            assertThat(json.out()).contains("\"pid\" : " + ProcessHandle.current().pid())
                    .contains("\"holdsWriteLock\" : true");
        }
    }

    @Test
    void shouldVerifyAnIntactQueueWithExitCodeZero() {
        Path queue = queueOf("alpha", "beta", "gamma");
        Run intact = cq("verify", queue.toString());
        assertThat(intact.exitCode()).isZero();
        assertThat(intact.out()).contains("3 excerpts checked, intact");
    }

    @Test
    void shouldVerifyADamagedQueueWithExitCodeOneNamingWhereTheDamageIs() throws IOException {
        Path queue = queueOf("alpha", "beta", "gamma");
        String dump = cq("dump", queue.toString()).out();
        long betaPosition = Long.parseLong(dump.lines().filter(line -> line.contains("\"beta\"")).findFirst()
                .orElseThrow()
                .replaceAll("^0x[0-9a-f]+ @(\\d+) .*", "$1"));
        Path cycleFile;
        try (Stream<Path> files = Files.list(queue)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            raf.seek(betaPosition);
            raf.writeInt(0x0BADF00D);
        }

        Run damaged = cq("verify", queue.toString());

        assertThat(damaged.exitCode()).isEqualTo(1);
        assertThat(damaged.out()).contains("DAMAGE " + cycleFile + " at " + betaPosition).contains("damaged");
    }

    @Test
    void shouldReportADamagedQueueInOneLineWithExitCodeFour() throws IOException {
        Path queue = queueOf("alpha", "beta", "gamma");
        Path cycleFile = damageThePrimaryIndex(queue);

        Run tail = cq("tail", "--last", "2", queue.toString());

        assertThat(tail.exitCode()).isEqualTo(4);
        assertThat(tail.err().strip().lines()).singleElement().asString()
                .startsWith("cq tail: damaged queue: ").contains(cycleFile.toString()).contains("primary index");
    }

    @Test
    void shouldPrintTheTraceOfADamagedQueueWithDebug() throws IOException {
        Path queue = queueOf("alpha", "beta", "gamma");
        damageThePrimaryIndex(queue);

        Run debug = cq("--debug", "tail", "--last", "2", queue.toString());

        assertThat(debug.exitCode()).isEqualTo(4);
        assertThat(debug.err()).contains("at io.cq.core");
    }

    /** Writes a position that is in no file into the primary index's first entry; returns the cycle file. */
    private static Path damageThePrimaryIndex(Path queue) throws IOException {
        Path cycleFile = cycleFileOf(queue);
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            // the primary index's first entry: no position in the file
            raf.seek(256);
            raf.writeLong(0x0102030405060708L);
        }
        return cycleFile;
    }

    @Test
    void shouldRepairADamagedQueueOnlyWhenAskedAndSayWhatWasSkipped() throws IOException {
        Path queue = queueOf(numbered(3_000, "r".repeat(60)));
        Path cycleFile;
        try (Stream<Path> files = Files.list(queue)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            raf.seek((raf.length() / 2) & -4096L);
            raf.write(new byte[4096]);
        }

        Run look = cq("repair", queue.toString());
        Run repair = cq("repair", "--skip-damaged", queue.toString());
        Run again = cq("verify", queue.toString());

        assertThat(look.exitCode()).isEqualTo(1);
        assertThat(look.out()).contains("DAMAGE").contains("run again with --skip-damaged");
        assertThat(repair.exitCode()).isZero();
        assertThat(repair.out()).containsPattern("SKIPPED " + Pattern.quote(cycleFile.toString())
                + " from \\d+ to \\d+: \\d+ excerpts").contains("1 cycle files repaired");
        assertThat(again.exitCode()).isZero();
    }

    @Test
    void shouldShowAMessageWithHundredsOfThousandsOfCborTagsAsMalformedBeforeDecodingIt() {
        Path queue = dir.resolve("tags");
        byte[] cbor = new byte[400_001];
        java.util.Arrays.fill(cbor, 0, 400_000, (byte) 0xC6);
        cbor[400_000] = 0x01;
        byte[] name = "onOrder".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender();
             WriteContext context = appender.writingDocument()) {
            context.bytes().writeInt('c' | 'q' << 8 | 'm' << 16 | 1 << 24).writeByte((byte) 0)
                    .writeByte((byte) name.length).writeBytes(name).writeByte((byte) 1)
                    .writeByte((byte) 'O').writeInt(cbor.length).writeBytes(cbor);
        }

        Run tail = cq("tail", queue.toString());

        // Refused by the linear check before Jackson, which alone takes seconds over such a chain.
        assertThat(tail.out() + tail.err()).contains("CBOR tags in a row");
    }

    @Test
    void shouldRefuseToWriteAfterAnExcerptCutByTheEndOfTheFileWithExitCodeFour() throws IOException {
        Path queue = queueOf("alpha " + "a".repeat(40), "beta " + "b".repeat(40));
        Path cycleFile;
        try (Stream<Path> files = Files.list(queue)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        long cut;
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            cut = raf.length() - 20;
            raf.setLength(cut);
        }
        Path order = Files.writeString(dir.resolve("order.yaml"), "id: o-1\n");

        Run write = cq("write", queue.toString(), "onOrder", order.toString());
        Run tail = cq("tail", queue.toString());

        assertThat(write.exitCode()).isEqualTo(4);
        assertThat(write.err()).contains("cut short").contains(cycleFile.toString());
        assertThat(Files.size(cycleFile)).isEqualTo(cut);
        assertThat(tail.exitCode()).isEqualTo(4);
        assertThat(tail.out()).startsWith("alpha").doesNotContain("\u0000");
    }

    @Test
    void shouldExplainAMissingDirectoryOrOneThatIsNotAQueue() throws IOException {
        Path missing = dir.resolve("missing");
        Path plain = Files.createDirectories(dir.resolve("plain"));
        for (String command : List.of("dump", "tail", "stats", "verify")) {
            Run onMissing = cq(command, missing.toString());
            Run onPlain = cq(command, plain.toString());

            assertThat(onMissing.exitCode()).as(command).isEqualTo(2);
            assertThat(onMissing.err()).as(command).contains("cq " + command + ": " + missing + " does not exist");
            assertThat(onPlain.exitCode()).as(command).isEqualTo(2);
            assertThat(onPlain.err()).as(command).contains("is not a cq queue: it has no metadata.cq4t");
        }
    }

    @Test
    void shouldDescribeEveryCommandInItsHelp() {
        for (String command : List.of("dump", "tail", "stats", "verify")) {
            Run help = cq(command, "--help");
            assertThat(help.exitCode()).isZero();
            assertThat(help.out()).startsWith("Usage: cq " + command);
        }
        Run noCommand = cq();
        assertThat(noCommand.exitCode()).isEqualTo(2);
        assertThat(noCommand.err()).contains("Missing command");
    }

    /** The command line adds only the command named; the names it goes by must be the commands' own. */
    @Test
    void shouldKnowEachCommandByTheNameItsAnnotationGives() {
        assertThat(CqCli.COMMANDS).hasSameSizeAs(CqCli.COMMAND_NAMES);
        for (int i = 0; i < CqCli.COMMANDS.length; i++) {
            assertThat(CqCli.COMMANDS[i].getAnnotation(CommandLine.Command.class).name())
                    .isEqualTo(CqCli.COMMAND_NAMES[i]);
        }
        Run usage = cq("--help");
        assertThat(usage.exitCode()).isZero();
        for (String name : CqCli.COMMAND_NAMES) {
            assertThat(usage.out()).contains("  " + name + " ");
        }
        assertThat(CqCli.commandLine(new String[] {"--debug", "tail", "x"}).getSubcommands()).containsOnlyKeys("tail");
        assertThat(CqCli.commandLine(new String[] {"help", "tail"}).getSubcommands()).containsKeys("tail", "dump",
                "help");
    }

    @Test
    void shouldRunACommandNamedAfterCqsOwnOptions() {
        Path queue = queueOf("first");
        Run debugTail = cq("--debug", "tail", queue.toString());
        assertThat(debugTail.exitCode()).isZero();
        assertThat(debugTail.lines()).containsExactly("first");
    }

    @Test
    void shouldReportAnUnknownCommand() {
        Path queue = queueOf("first");
        Run unknown = cq("tial", queue.toString());
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("tial");
    }

    /** Texts "excerpt 0 ..." to "excerpt count-1 ...", each followed by the padding: a dump line is found by one. */
    private static String[] numbered(int count, String padding) {
        String[] texts = new String[count];
        for (int i = 0; i < count; i++) {
            texts[i] = "excerpt " + i + " " + padding;
        }
        return texts;
    }

    private static Path cycleFileOf(Path queue) throws IOException {
        try (Stream<Path> files = Files.list(queue)) {
            return files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
    }

    private static long positionOf(Path queue, String text) {
        return Long.parseLong(cq("dump", queue.toString()).out().lines().filter(line -> line.contains(text))
                .findFirst().orElseThrow().replaceAll("^0x[0-9a-f]+ @(\\d+) .*", "$1"));
    }

    @Test
    void shouldMatchIncludeAndExcludeAgainstTheExcerptNotTheIndexBeforeIt() {
        Path queue = queueOf("order 1", "cancel 2", "order 3");

        Run run = cq("tail", "-s", "-i", "^order", "-e", "3$", queue.toString());

        assertThat(run.exitCode()).isZero();
        assertThat(run.lines()).singleElement().asString().matches("0x[0-9a-f]+ order 1");
    }

    @Test
    void shouldRefuseANegativeLimit() {
        Path queue = queueOf("first");

        Run run = cq("tail", "--limit", "-1", queue.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("cq tail: --limit takes a count of 0 or more, not -1\n");
    }

    @Test
    void shouldRefuseToWriteAMethodNameThatHoldsControlCharactersOrIsEmpty() {
        Path queue = queueOf("first");
        for (String name : new String[] {"ev\u001b[2J\rX", "", "on order"}) {
            Run run = cq("write", queue.toString(), name, "-");
            assertThat(run.exitCode()).as(name).isEqualTo(2);
            assertThat(run.err()).as(name).startsWith("cq write: the method name \"")
                    .contains("is empty or holds spaces or control characters");
        }
        assertThat(indexesOf(queue)).hasSize(1);
    }

    @Test
    void shouldShowAMethodNameThatCouldMoveTheTerminalsCursorEscaped() {
        Path queue = dir.resolve("q");
        try (MappedQueue q = MappedQueue.builder(queue).build(); ExcerptAppender appender = q.acquireAppender()) {
            io.cq.core.message.Messages.write(appender, "ev\u001b[2J\rX", List.of());
        }

        Run tail = cq("tail", queue.toString());
        Run dump = cq("dump", queue.toString());

        assertThat(tail.out()).isEqualTo("\"ev\\u001B[2J\\rX\" []\n").doesNotContain("\u001b");
        assertThat(dump.out()).contains("\"ev\\u001B[2J\\rX\" []").doesNotContain("\u001b");
    }

    @Test
    void shouldDumpEverythingThenExitFourWhenRecordsFollowAZeroedPage() throws IOException {
        Path queue = queueOf(numbered(3_000, "z".repeat(60)));
        Path cycleFile = cycleFileOf(queue);
        long zeroed = (positionOf(queue, "excerpt 1500 ") + 4096) & -4096L;
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            raf.seek(zeroed);
            raf.write(new byte[4096]);
        }

        Run dump = cq("dump", queue.toString());

        assertThat(dump.exitCode()).isEqualTo(4);
        assertThat(dump.out()).contains("excerpt 1500 ").contains("non-zero bytes after the end of the data")
                .doesNotContain("(end of written data)");
        assertThat(dump.err()).startsWith("cq dump: damaged queue: " + cycleFile + " at position ")
                .contains("records after a zeroed stretch").endsWith("cq verify lists every damage\n");
    }

    @Test
    void shouldDumpEverythingThenExitFourOnAHeaderThatIsNoRecords() throws IOException {
        Path queue = queueOf("alpha", "beta", "gamma");
        long beta = positionOf(queue, "\"beta\"");
        try (RandomAccessFile raf = new RandomAccessFile(cycleFileOf(queue).toFile(), "rw")) {
            raf.seek(beta);
            raf.writeInt(0x0BADF00D);
        }

        Run dump = cq("dump", queue.toString());

        assertThat(dump.exitCode()).isEqualTo(4);
        assertThat(dump.out()).contains("\"alpha\"").contains("@" + beta + " invalid header");
        assertThat(dump.err()).contains("at position " + beta + ": expected a record header, found invalid header");
    }

    @Test
    void shouldDumpARecordCutShortByTheEndOfTheFileAsDamage() throws IOException {
        Path queue = queueOf(numbered(2_000, "c".repeat(200)));
        Path cycleFile = cycleFileOf(queue);
        long cut = positionOf(queue, "excerpt 1000 ") + 100;
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            raf.setLength(cut);
        }

        Run dump = cq("dump", queue.toString());

        assertThat(dump.exitCode()).isEqualTo(4);
        assertThat(dump.out()).contains("excerpt 999 ").contains("(cut short: the file ends first)");
        assertThat(dump.err()).contains("ends past the end of the file (" + cut + " bytes): it was cut short");
    }

    @Test
    void shouldPrintTheVersionFromEveryCommand() {
        for (String command : CqCli.COMMAND_NAMES) {
            Run run = cq(command, "--version");
            assertThat(run.exitCode()).as(command).isZero();
            assertThat(run.out()).as(command).startsWith("cq ");
        }
    }

    @Test
    void shouldReportAUsageErrorInOneLineNamingTheHelp() {
        Run run = cq("tail", "--last");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("cq tail: Missing required parameter for option '--last' (<n>)\n"
                + "cq tail --help lists what it takes\n");
    }

    @Test
    void shouldListTheCommandsWhenNoneIsGiven() {
        assertThat(cq().err()).startsWith("cq: Missing command: one of dump, tail, write, stats, verify, repair\n");
    }

    @Test
    void shouldReportADamagedTableStoreOnceAndTheSameWayFromVerifyAndRepair() throws IOException {
        Path queue = queueOf("alpha");
        try (RandomAccessFile raf = new RandomAccessFile(queue.resolve("metadata.cq4t").toFile(), "rw")) {
            raf.seek(0);
            raf.writeLong(0x0102030405060708L);
        }

        Run verify = cq("verify", queue.toString());
        Run repair = cq("repair", queue.toString());

        assertThat(verify.exitCode()).isEqualTo(1);
        assertThat(repair.exitCode()).isEqualTo(1);
        String damage = verify.lines().getFirst();
        assertThat(damage).startsWith("DAMAGE " + queue.resolve("metadata.cq4t") + " at ");
        assertThat(damage.split(queue.resolve("metadata.cq4t").toString(), -1)).hasSize(2);
        assertThat(repair.lines().getFirst()).isEqualTo(damage);
        assertThat(repair.lines().get(1)).contains("--skip-damaged cannot mend the table store");
    }

    @Test
    void shouldRepairAQueueWhoseNewestCycleFileWasDeletedAndOneWhoseCycleHeaderIsCut() throws IOException {
        Path queue = dir.resolve("q");
        Instant start = Instant.parse("2026-11-22T10:00:00Z");
        for (int hour = 0; hour < 3; hour++) {
            Clock clock = Clock.fixed(start.plusSeconds(3_600L * hour), ZoneOffset.UTC);
            try (MappedQueue q = MappedQueue.builder(queue).rollCycle(RollCycle.HOURLY).clock(clock).build();
                 ExcerptAppender appender = q.acquireAppender()) {
                appender.writeText("hour " + hour);
            }
        }
        List<Path> cycles;
        try (Stream<Path> files = Files.list(queue)) {
            cycles = files.filter(path -> path.toString().endsWith(".cq4")).sorted().toList();
        }
        Files.delete(cycles.get(2));
        try (RandomAccessFile raf = new RandomAccessFile(cycles.get(0).toFile(), "rw")) {
            raf.setLength(100);
        }

        Run verify = cq("verify", queue.toString());
        Path document = Files.writeString(dir.resolve("one.yaml"), "1\n");
        Run refused = cq("write", queue.toString(), "onX", document.toString());
        Run repair = cq("repair", "--skip-damaged", queue.toString());
        Run after = cq("verify", queue.toString());

        assertThat(verify.exitCode()).isEqualTo(1);
        assertThat(verify.out()).contains("shorter than its 256-byte header")
                .contains("no writer can open the queue until cq repair --skip-damaged");
        assertThat(refused.exitCode()).isEqualTo(4);
        assertThat(repair.exitCode()).isZero();
        assertThat(repair.out()).contains("SET ASIDE " + cycles.get(0) + " as " + cycles.get(0) + ".damaged")
                .contains("RESET " + queue.resolve("metadata.cq4t"))
                .endsWith(": 1 cycle files set aside, the table store's cycle range reset\n");
        assertThat(after.exitCode()).isZero();
        assertThat(after.out()).contains("NOTE " + cycles.get(0) + ".damaged");
        assertThat(cq("tail", queue.toString()).lines()).containsExactly("hour 1");
    }
}
