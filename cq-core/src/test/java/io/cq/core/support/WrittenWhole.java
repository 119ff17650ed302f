package io.cq.core.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a finished cycle file again in full, its unused index blocks of zeros included, as a new file renamed over
 * it: what a process that died before its background thread gave the index space back leaves behind.
 */
public final class WrittenWhole {
    private WrittenWhole() {
    }

    /** @return the bytes the file holds, unchanged */
    public static byte[] again(Path file) throws IOException {
        byte[] content = Files.readAllBytes(file);
        Path whole = file.resolveSibling(file.getFileName() + ".whole");
        Files.write(whole, content);
        Files.move(whole, file, StandardCopyOption.REPLACE_EXISTING);
        return content;
    }
}
