package io.cq.core.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Bytes a file or directory occupies on disk (allocated blocks, not apparent size), as {@code du} counts them. */
public final class DiskUsage {
    private DiskUsage() {
    }

    public static long allocatedBytes(Path path) {
        try {
            Process du = new ProcessBuilder("du", "--block-size=1", "-s", path.toString()).redirectErrorStream(true)
                    .start();
            String out = new String(du.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!du.waitFor(30, TimeUnit.SECONDS) || du.exitValue() != 0) {
                throw new IllegalStateException("du " + path + " failed: " + out);
            }
            return Long.parseLong(out.trim().split("\\s+")[0]);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run du for " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while measuring " + path, e);
        }
    }
}
