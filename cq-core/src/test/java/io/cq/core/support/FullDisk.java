package io.cq.core.support;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fills a small file system to its last block, for tests of what cq does on a full disk. */
public final class FullDisk {
    private FullDisk() {
    }

    /** Writes {@code filler} until the file system has no block left. */
    public static void fillTheRest(Path filler) {
        try (OutputStream out = Files.newOutputStream(filler)) {
            byte[] block = new byte[4096];
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            // what was asked for
        }
    }
}
