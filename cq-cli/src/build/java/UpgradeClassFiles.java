import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Build step of cq-cli (run by the package phase, after shading, with the JDK 25 toolchain): rewrites the class files
 * under a package prefix of a JAR that are older than Java 6 (class file version 50) as Java 8 class files (52), with
 * the stack map frames the JDK's ClassFile API computes. The instructions stay as they are.
 *
 * <p>Why: picocli is compiled for Java 5. The JVM can keep no such class in an AOT cache, and verifies it with the
 * old type-inferring verifier on every run: about 85 of the 170 ms that {@code cq tail} took to show its first line
 * with {@code bin/cq}'s AOT cache (docs/cli.md). Rewritten, picocli is cached like everything else.
 *
 * <p>Every entry is written stored, not deflated, as the other cq JARs are: the JVM then loads a class without
 * inflating it, which shortens the command's start-up.
 *
 * <p>Arguments: the JAR (rewritten in place) and the package prefix, e.g. {@code picocli/}.
 */
public final class UpgradeClassFiles {
    private static final int OLDEST_KEPT = 50;
    private static final int TARGET = 52;

    private UpgradeClassFiles() {
    }

    public static void main(String[] args) throws IOException {
        Path jar = Path.of(args[0]);
        String prefix = args[1];
        Path rewritten = jar.resolveSibling(jar.getFileName() + ".upgraded");
        int count = 0;
        try (URLClassLoader classes = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            // Stack map frames need the common supertypes of the types that meet at a branch: the JAR's own classes
            // and the JDK's.
            ClassFile files = ClassFile.of(ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
                    ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.defaultResolver()
                            .orElse(ClassHierarchyResolver.ofResourceParsing(classes))));
            ClassTransform version = (builder, element) -> {
                if (element instanceof ClassFileVersion) {
                    builder.withVersion(TARGET, 0);
                } else {
                    builder.with(element);
                }
            };
            // Re-emitting every method body is what makes the API compute frames for it.
            ClassTransform upgrade = version.andThen(ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL));
            try (InputStream file = Files.newInputStream(jar);
                 ZipInputStream in = new ZipInputStream(file);
                 OutputStream target = Files.newOutputStream(rewritten);
                 ZipOutputStream out = new ZipOutputStream(target)) {
                for (ZipEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                    byte[] data = in.readAllBytes();
                    if (entry.getName().startsWith(prefix) && entry.getName().endsWith(".class")
                            && majorVersion(data) < OLDEST_KEPT) {
                        data = files.transformClass(files.parse(data), upgrade);
                        count++;
                    }
                    ZipEntry copy = new ZipEntry(entry.getName());
                    // The build's fixed timestamp (reproducible builds) stays.
                    copy.setTime(entry.getTime());
                    // Stored, not deflated, like every cq JAR: the JVM loads a class without inflating it.
                    CRC32 crc = new CRC32();
                    crc.update(data);
                    copy.setMethod(ZipEntry.STORED);
                    copy.setSize(data.length);
                    copy.setCompressedSize(data.length);
                    copy.setCrc(crc.getValue());
                    out.putNextEntry(copy);
                    out.write(data);
                    out.closeEntry();
                }
            }
        }
        Files.move(rewritten, jar, StandardCopyOption.REPLACE_EXISTING);
        System.out.println("[cq-cli build] " + count + " class files under " + prefix + " in " + jar.getFileName()
                + " rewritten as class file version " + TARGET + " with stack map frames");
    }

    private static int majorVersion(byte[] classFile) {
        return ((classFile[6] & 0xFF) << 8) | (classFile[7] & 0xFF);
    }
}
