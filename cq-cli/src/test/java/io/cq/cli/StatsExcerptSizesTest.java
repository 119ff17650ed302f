package io.cq.cli;

import io.cq.cli.CqCliTest.Run;
import io.cq.core.MappedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static io.cq.cli.CqCliTest.cq;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code cq stats}: the histogram of excerpt sizes, read whole or sampled, in text and JSON. */
class StatsExcerptSizesTest {
    @TempDir
    Path dir;

    private Path queueOfSizes(int[]... cycles) {
        return SizedExcerpts.queueOfSizes(dir.resolve("q"), cycles);
    }

    private static int[] repeat(int size, int times) {
        return SizedExcerpts.repeat(size, times);
    }

    private static JsonNode sizesJson(Run run) {
        assertThat(run.exitCode()).as(run.err()).isZero();
        return JsonMapper.builder().build().readTree(run.out()).get("excerptSizes");
    }

    /** The buckets of the JSON output as "from-to:count". */
    private static List<String> buckets(JsonNode sizes) {
        List<String> buckets = new ArrayList<>();
        for (JsonNode bucket : sizes.get("buckets")) {
            buckets.add(bucket.get("fromBytes").asLong() + "-" + bucket.get("toBytes").asLong() + ":"
                    + bucket.get("count").asLong());
        }
        return buckets;
    }

    /** The text output from the histogram's first line on. */
    private static List<String> histogramLines(Run run) {
        assertThat(run.exitCode()).as(run.err()).isZero();
        return histogramLinesOf(run);
    }

    /** As {@link #histogramLines(Run)}, whatever the exit code. */
    private static List<String> histogramLinesOf(Run run) {
        List<String> lines = run.lines();
        return lines.subList(lines.indexOf(lines.stream().filter(line -> line.startsWith("excerpt sizes"))
                .findFirst().orElseThrow()), lines.size());
    }

    @Test
    void shouldCountEveryExcerptInPowerOfTwoRangesFromTheSmallestToTheLargest() {
        Path queue = queueOfNineSizes();

        Run text = cq("stats", queue.toString());

        assertThat(histogramLines(text)).containsExactly(
                "excerpt sizes  9 of 9 excerpts read: 0 to 1000 bytes, 243.9 on average",
                "  0-15 B      3  ########################################",
                "  16-31 B     2  ###########################",
                "  32-63 B     1  #############",
                "  64-127 B    1  #############",
                "  128-255 B   0",
                "  256-511 B   0",
                "  512-1023 B  2  ###########################");
    }

    @Test
    void shouldGiveTheRangesAndFiguresOfTheExcerptSizesInJson() {
        Path queue = queueOfNineSizes();

        Run jsonRun = cq("stats", "--format", "json", queue.toString());
        JsonNode json = JsonMapper.builder().build().readTree(jsonRun.out()).get("excerptSizes");

        assertThat(buckets(json)).containsExactly("0-15:3", "16-31:2", "32-63:1", "64-127:1", "128-255:0",
                "256-511:0", "512-1023:2");
        assertThat(json.get("read").asLong()).isEqualTo(9);
        assertThat(json.get("excerpts").asLong()).isEqualTo(9);
        assertThat(json.get("every").asLong()).isOne();
        assertThat(json.get("minBytes").asLong()).isZero();
        assertThat(json.get("maxBytes").asLong()).isEqualTo(1000);
        assertThat(json.get("totalBytes").asLong()).isEqualTo(2195);
        assertThat(json.get("damage").isNull()).isTrue();
    }

    /** Nine excerpts of 0 to 1000 bytes, 2195 in all. */
    private Path queueOfNineSizes() {
        return queueOfSizes(new int[] {0, 1, 15, 16, 31, 32, 100, 1000, 1000});
    }

    @Test
    void shouldStartAtTheRangeOfTheSmallestExcerpt() {
        Path queue = queueOfSizes(repeat(4096, 3), repeat(9000, 1));

        assertThat(histogramLines(cq("stats", queue.toString()))).containsExactly(
                "excerpt sizes  4 of 4 excerpts read: 4096 to 9000 bytes, 5322.0 on average",
                "  4096-8191 B   3  ########################################",
                "  8192-16383 B  1  #############");
    }

    @Test
    void shouldReadOneExcerptFromEachRunWhenTheQueueHoldsMoreThanTheLimit() {
        Path queue = queueOfSizes(repeat(8, 30), repeat(40, 30), repeat(200, 40));

        // 100 excerpts, at most 20: one from each run of 5, six, six and eight from the three cycles.
        JsonNode json = sizesJson(cq("stats", "--format", "json", "--sizes", "20", queue.toString()));
        Run text = cq("stats", "--sizes", "20", queue.toString());

        assertThat(json.get("every").asLong()).isEqualTo(5);
        assertThat(json.get("read").asLong()).isEqualTo(20);
        assertThat(json.get("excerpts").asLong()).isEqualTo(100);
        assertThat(buckets(json)).containsExactly("0-15:6", "16-31:0", "32-63:6", "64-127:0", "128-255:8");
        assertThat(histogramLines(text)).containsExactly(
                "excerpt sizes  20 of 100 excerpts read (one at random in each 5; --sizes all reads every one): "
                        + "8 to 200 bytes, 94.4 on average",
                "  0-15 B     6  ##############################",
                "  16-31 B    0",
                "  32-63 B    6  ##############################",
                "  64-127 B   0",
                "  128-255 B  8  ########################################");
    }

    @Test
    void shouldReadEveryExcerptWithSizesAll() {
        Path queue = queueOfSizes(repeat(8, 3));

        JsonNode all = sizesJson(cq("stats", "--format", "json", "--sizes", "all", queue.toString()));

        assertThat(buckets(all)).containsExactly("0-15:3");
    }

    @Test
    void shouldReadNoExcerptWithSizesZero() {
        Path queue = queueOfSizes(repeat(8, 3));

        Run none = cq("stats", "--sizes", "0", queue.toString());
        JsonNode noneJson = sizesJson(cq("stats", "--format", "json", "--sizes", "0", queue.toString()));

        assertThat(histogramLines(none)).containsExactly("excerpt sizes  not read (--sizes 0)");
        assertThat(noneJson.isNull()).isTrue();
    }

    @Test
    void shouldRefuseASizesLimitThatIsNotACountWithExitCodeTwo() {
        Path queue = queueOfSizes(repeat(8, 3));

        for (String bad : List.of("-1", "many")) {
            Run run = cq("stats", "--sizes", bad, queue.toString());

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.err()).contains("--sizes=" + bad + ": expected a number of excerpts");
        }
    }

    @Test
    void shouldShowNoRangesForAnEmptyQueue() {
        Path queue = dir.resolve("empty");
        MappedQueue.builder(queue).build().close();

        Run text = cq("stats", queue.toString());
        Run jsonRun = cq("stats", "--format", "json", queue.toString());
        JsonNode json = JsonMapper.builder().build().readTree(jsonRun.out()).get("excerptSizes");

        assertThat(histogramLines(text)).containsExactly("excerpt sizes  0 of 0 excerpts read");
        assertThat(buckets(json)).isEmpty();
    }

    @Test
    void shouldShowTheSizesReadBeforeDamageAndWhereTheDamageIs() throws IOException {
        // Damage early in a cycle of 40: counting the excerpts starts from the last index entry and does not meet it.
        Path queue = queueOfSizes(repeat(20, 40));
        String dump = cq("dump", queue.toString()).out();
        long secondPosition = Long.parseLong(dump.lines().filter(line -> line.matches("^0x[0-9a-f]+ @\\d+ .*"))
                .skip(1).findFirst().orElseThrow().replaceAll("^0x[0-9a-f]+ @(\\d+) .*", "$1"));
        Path cycleFile;
        try (Stream<Path> files = Files.list(queue)) {
            cycleFile = files.filter(path -> path.toString().endsWith(".cq4")).findFirst().orElseThrow();
        }
        try (RandomAccessFile raf = new RandomAccessFile(cycleFile.toFile(), "rw")) {
            raf.seek(secondPosition);
            raf.writeInt(0x0BADF00D);
        }

        Run text = cq("stats", queue.toString());
        Run jsonRun = cq("stats", "--format", "json", queue.toString());
        JsonNode json = JsonMapper.builder().build().readTree(jsonRun.out()).get("excerptSizes");

        assertThat(histogramLinesOf(text)).containsExactly(
                "excerpt sizes  1 of 40 excerpts read: 20 to 20 bytes, 20.0 on average",
                "  stopped by damage in " + cycleFile + " at " + secondPosition + " (cq verify lists the damage)",
                "  16-31 B  1  ########################################");
        assertThat(json.get("damage").get("position").asLong()).isEqualTo(secondPosition);
        assertThat(buckets(json)).containsExactly("16-31:1");
        assertThat(text.exitCode()).as("the figures are shown, and the exit code says the queue is damaged")
                .isEqualTo(4);
        assertThat(jsonRun.exitCode()).isEqualTo(4);
        assertThat(text.err()).startsWith("cq stats: damaged queue: " + cycleFile + " at position " + secondPosition);
    }
}
