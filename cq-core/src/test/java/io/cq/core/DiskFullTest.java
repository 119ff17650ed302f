package io.cq.core;

import io.cq.core.support.ChildJvm;
import io.cq.core.support.DiskFillingProcess;
import io.cq.core.support.QueueCheckingProcess;
import io.cq.core.support.RetentionOnFullDiskProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A queue on a real 16 MiB file system (a tmpfs this test mounts; it needs root), written by a second JVM with and
 * without native access, the way {@code java -jar app.jar} runs: a full disk is a refused append, never a crash,
 * everything accepted before it is readable by a third JVM, and appends go on once space is freed.
 */
class DiskFullTest {
    private static final long MIB = 1L << 20;
    private static final Pattern ACCEPTED = Pattern.compile("accepted=(\\d+) refusal=(\\S+) cause=(\\S+) message=(.*)");
    private static final Pattern REFUSED_RANGE = Pattern.compile("from (\\d+) to (\\d+)");
    private static final long PAGE = 4096;

    @TempDir
    Path dir;
    private Path mount;

    @BeforeEach
    void mountSixteenMebibytes() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a 16 MiB tmpfs needs root");
        mount = Files.createDirectories(dir.resolve("small-fs"));
        Process mounting = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        String output = new String(mounting.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assumeTrue(mounting.waitFor(30, TimeUnit.SECONDS) && mounting.exitValue() == 0,
                "mount -t tmpfs failed: " + output);
    }

    @AfterEach
    void unmount() throws Exception {
        if (mount != null) {
            new ProcessBuilder("umount", mount.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * The third minute's file does not fit until retention deletes the first minute's, which it would delete at this
     * roll anyway; reservations ahead in the second minute's file must not take the room it makes.
     */
    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {false, true})
    void shouldLetRetentionMakeRoomForTheNextCycleOnAFullDisk(boolean nativeAccess) throws Exception {
        List<String> writer = ChildJvm.runToEnd(nativeAccess, RetentionOnFullDiskProcess.class,
                mount.resolve("q").toString(), mount.resolve("filler").toString());

        assertThat(writer).contains("refusal=" + UncheckedIOException.class.getName(), "cycles=2",
                "last=in the third minute");
        assertThat(writer).noneMatch(line -> line.contains("SIGBUS") || line.contains("InternalError")
                || line.contains("A fatal error") || line.contains("restricted method"));
    }

    @ParameterizedTest(name = "native access: {0}")
    @ValueSource(booleans = {false, true})
    void shouldRefuseAnAppendOnAFullDiskKeepEverythingAcceptedAndResumeOnceSpaceIsFreed(boolean nativeAccess)
            throws Exception {
        Path queue = mount.resolve("q");
        Path filler = mount.resolve("filler");
        Files.write(filler, new byte[(int) MIB]);

        List<String> writer = ChildJvm.runToEnd(nativeAccess, DiskFillingProcess.class, queue.toString(),
                filler.toString());

        // The low-disk-space warning is expected; a signal, a JVM error or a native-access warning is not.
        assertThat(writer).noneMatch(line -> line.contains("SIGBUS") || line.contains("InternalError")
                || line.contains("A fatal error") || line.contains("restricted method"));
        Matcher accepted = writer.stream().map(ACCEPTED::matcher).filter(Matcher::matches).findFirst()
                .orElseThrow(() -> new AssertionError("the writer said nothing of a refusal: " + writer));
        long count = Long.parseLong(accepted.group(1));
        assertThat(count * DiskFillingProcess.PAYLOAD).as("payload accepted before the disk was full")
                .isGreaterThanOrEqualTo(12 * MIB);
        assertThat(accepted.group(2)).isEqualTo("java.io.UncheckedIOException");
        assertThat(accepted.group(3)).isEqualTo("java.io.IOException");
        assertThat(accepted.group(4)).contains(queue.toString()).containsIgnoringCase("space");
        // Refused for the append's own bytes: the step reserved ahead shrinks to them when it no longer fits.
        Matcher refused = REFUSED_RANGE.matcher(accepted.group(4));
        assertThat(refused.find()).as("the refused range in: " + accepted.group(4)).isTrue();
        assertThat(Long.parseLong(refused.group(2)) - Long.parseLong(refused.group(1))).as("bytes refused")
                .isLessThanOrEqualTo(DiskFillingProcess.PAYLOAD + 2 * PAGE);
        assertThat(writer).contains("resumed total=" + (count + 10), "closed");

        List<String> reader = ChildJvm.runToEnd(nativeAccess, QueueCheckingProcess.class, queue.toString(),
                String.valueOf(DiskFillingProcess.PAYLOAD));
        assertThat(reader).contains("read=" + (count + 10) + " wrong=none intact=true");
    }
}
