package io.cq.docs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/architecture.md's table of cq-core's internal classes stays true: every top-level class under
 * {@code io.cq.core.internal} is listed under its package, and every class listed exists there.
 */
class ArchitectureDocTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize()
            .getParent();
    private static final Path INTERNAL = ROOT.resolve("cq-core/src/main/java/io/cq/core/internal");
    private static final String TABLE_HEADING = "### Internal classes by package";
    /** A row: | `internal.queue` | `StoreQueue`, `StoreAppender`, ... | what they do | */
    private static final Pattern ROW = Pattern.compile("^\\| `internal\\.([a-z.]+)` \\| ([^|]*) \\|");
    private static final Pattern NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*)`");

    @Test
    void shouldListEveryInternalClassUnderItsPackage() throws IOException {
        Map<String, Set<String>> documented = documented();

        List<String> missing = new ArrayList<>();
        actual().forEach((pkg, classes) -> classes.stream()
                .filter(name -> !documented.getOrDefault(pkg, Set.of()).contains(name))
                .forEach(name -> missing.add("internal." + pkg + "." + name + " is missing from the table")));
        assertThat(missing).as("docs/architecture.md, \"%s\"", TABLE_HEADING).isEmpty();
    }

    @Test
    void shouldListNoClassThatIsGone() throws IOException {
        Map<String, Set<String>> actual = actual();

        List<String> gone = new ArrayList<>();
        documented().forEach((pkg, classes) -> classes.stream()
                .filter(name -> !actual.getOrDefault(pkg, Set.of()).contains(name))
                .forEach(name -> gone.add("internal." + pkg + "." + name + " is listed but not in the code")));
        assertThat(gone).as("docs/architecture.md, \"%s\"", TABLE_HEADING).isEmpty();
    }

    private static Map<String, Set<String>> documented() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/architecture.md"));
        int start = page.indexOf(TABLE_HEADING);
        assertThat(start).as("the table's heading").isNotNegative();
        Map<String, Set<String>> rows = new TreeMap<>();
        for (String line : page.substring(start).lines().skip(1).toList()) {
            if (line.startsWith("#")) {
                break;
            }
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                Matcher name = NAME.matcher(row.group(2));
                Set<String> classes = rows.computeIfAbsent(row.group(1), pkg -> new TreeSet<>());
                while (name.find()) {
                    classes.add(name.group(1));
                }
            }
        }
        return rows;
    }

    /** Top-level classes (one per file, by Java's rule for public ones) of each internal package. */
    private static Map<String, Set<String>> actual() throws IOException {
        Map<String, Set<String>> packages = new TreeMap<>();
        try (Stream<Path> files = Files.walk(INTERNAL)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String pkg = INTERNAL.relativize(file.getParent()).toString().replace('/', '.');
                String name = file.getFileName().toString().replace(".java", "");
                if (!name.equals("package-info")) {
                    packages.computeIfAbsent(pkg, p -> new TreeSet<>()).add(name);
                }
            }
        }
        return packages;
    }
}
