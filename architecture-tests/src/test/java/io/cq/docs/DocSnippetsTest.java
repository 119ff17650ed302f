package io.cq.docs;

import io.cq.spring.boot.autoconfigure.ConsoleProperties;
import io.cq.spring.boot.autoconfigure.CqProperties;
import io.cq.spring.boot.autoconfigure.RequestReplyProperties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The documentation's code, checked by the build (issue 43): every {@code ```java} block of README.md,
 * CONTRIBUTING.md and docs/ compiles against the project's classes, every {@code ```yaml} block that starts with
 * {@code cq:} binds to the starter's properties with no key left over, and every relative link and #anchor
 * resolves.
 *
 * <p>How a Java block is compiled depends on its info string:
 * <ul>
 *   <li>{@code ```java}: a compilation unit, as written (imports included). The test gives it a package of its own
 *       and an on-demand import of {@link io.cq.docs.context} (the examples' own types: {@code Order},
 *       {@code OrderEvents}, {@code Trade} ...), which a type of the block's own shadows.</li>
 *   <li>{@code ```java fragment}: statements. Leading {@code import} lines stay imports; the rest becomes the body
 *       of a method of a subclass of {@link io.cq.docs.context.DocContext}, whose fields are the variables the
 *       pages take as given ({@code queue}, {@code appender}, {@code tailer}, {@code template} ...).</li>
 *   <li>{@code ```java members}: fields and methods (Spring {@code @Bean} methods), the body of such a class.</li>
 * </ul>
 * All blocks are compiled in one javac call; an error is reported at its page and line.
 */
class DocSnippetsTest {
    private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize()
            .getParent();
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s+[\\w.*\\s]+;\\s*(//.*)?$");
    private static final Pattern PUBLIC_TYPE = Pattern.compile("(?m)^public\\s+(?:(?:final|abstract|sealed)\\s+)*"
            + "(?:class|interface|record|enum|@interface)\\s+(\\w+)");
    private static final String WRAPPER_IMPORTS = """
            import io.cq.core.*;
            import io.cq.core.codec.*;
            import io.cq.core.message.*;
            import io.cq.docs.context.*;
            import java.nio.file.*;
            import java.time.*;
            import java.util.*;
            import java.util.concurrent.*;
            import static org.assertj.core.api.Assertions.assertThat;
            """;

    private record Source(Markdown.Block block, Path file, int linesBefore) {
    }

    @Test
    void shouldCompileEveryJavaBlock() throws IOException {
        Path out = ROOT.resolve("architecture-tests/target/doc-snippets");
        deleteRecursively(out);
        List<Source> sources = new ArrayList<>();
        int n = 0;
        for (Path page : Markdown.pages(ROOT)) {
            for (Markdown.Block block : Markdown.blocks(page)) {
                if (block.language().equals("java")) {
                    sources.add(write(block, out.resolve("src"), "docs.p" + (++n)));
                }
            }
        }
        assertThat(sources).as("java blocks in the documentation").hasSizeGreaterThan(20);

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Files.createDirectories(out.resolve("classes"));
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("-proc:none", "-Xlint:none", "-nowarn", "-implicit:none",
                    "-classpath", System.getProperty("java.class.path"), "-d", out.resolve("classes").toString());
            javac.getTask(null, files, diagnostics, options, null,
                    files.getJavaFileObjectsFromPaths(sources.stream().map(Source::file).toList())).call();
        }
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR) {
                continue;
            }
            String where = sources.stream()
                    .filter(s -> d.getSource() != null && Path.of(d.getSource().toUri()).equals(s.file()))
                    .findFirst()
                    .map(s -> ROOT.relativize(s.block().page()) + ":"
                            + (s.block().firstLine() + d.getLineNumber() - 1 - s.linesBefore()))
                    .orElse(String.valueOf(d.getSource()));
            errors.add(where + ": " + d.getMessage(Locale.ROOT));
        }
        assertThat(errors).as("compiling %d java blocks", sources.size()).isEmpty();
    }

    private static Source write(Markdown.Block block, Path src, String pkg) throws IOException {
        String kind = block.info();
        StringBuilder imports = new StringBuilder();
        StringBuilder body = new StringBuilder();
        String[] lines = block.code().split("\n", -1);
        int bodyStart = 0;
        if (!kind.isEmpty()) {           // fragments: leading imports (and blank lines among them) stay imports
            while (bodyStart < lines.length
                    && (lines[bodyStart].isBlank() || IMPORT.matcher(lines[bodyStart]).matches())) {
                imports.append(lines[bodyStart]).append('\n');
                bodyStart++;
            }
        }
        for (int i = bodyStart; i < lines.length; i++) {
            body.append(lines[i]).append('\n');
        }
        String text;
        int before;
        String name;
        switch (kind) {
            case "" -> {
                Matcher type = PUBLIC_TYPE.matcher(block.code());
                name = type.find() ? type.group(1) : "Snippet";
                text = "package " + pkg + "; import io.cq.docs.context.*;\n" + block.code();
                before = 1;
            }
            case "fragment", "members" -> {
                name = "Snippet";
                String head = "package " + pkg + ";\n" + WRAPPER_IMPORTS + imports
                        + "class Snippet extends DocContext {\n"
                        + (kind.equals("fragment") ? "void snippet() throws Exception {\n" : "");
                text = head + body + (kind.equals("fragment") ? "}\n" : "") + "}\n";
                before = (int) head.lines().count() - bodyStart;
            }
            default -> throw new AssertionError(block.where() + ": unknown java block kind '" + kind
                    + "' (java, java fragment or java members)");
        }
        Path file = src.resolve(pkg.replace('.', '/')).resolve(name + ".java");
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return new Source(block, file, before);
    }

    @Test
    void shouldBindEveryCqYamlBlockWithNothingLeftOver() {
        List<String> errors = new ArrayList<>();
        int checked = 0;
        for (Path page : Markdown.pages(ROOT)) {
            for (Markdown.Block block : Markdown.blocks(page)) {
                if (!block.language().equals("yaml") || !block.code().startsWith("cq:")) {
                    continue;
                }
                checked++;
                Map<String, Object> flat = new LinkedHashMap<>();
                flatten("", new Yaml().load(block.code()), flat);
                try {
                    bind(flat);
                } catch (RuntimeException e) {
                    StringBuilder message = new StringBuilder(e.getMessage());
                    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
                        message.append(" <- ").append(cause.getMessage());
                    }
                    errors.add(ROOT.relativize(page) + ":" + block.firstLine() + ": " + message);
                }
            }
        }
        assertThat(checked).as("cq yaml blocks").isPositive();
        assertThat(errors).isEmpty();
    }

    /** Each properties class binds its own prefix strictly; a key under none of them is an error too. */
    private static void bind(Map<String, Object> flat) {
        Map<String, Object> requestReply = new LinkedHashMap<>();
        Map<String, Object> console = new LinkedHashMap<>();
        Map<String, Object> rest = new LinkedHashMap<>();
        flat.forEach((key, value) -> (key.startsWith("cq.request-reply.") ? requestReply
                : key.startsWith("cq.console.") ? console : rest).put(key, value));
        bind(rest, "cq", CqProperties.class);
        bind(requestReply, "cq.request-reply", RequestReplyProperties.class);
        bind(console, "cq.console", ConsoleProperties.class);
    }

    private static void bind(Map<String, Object> keys, String prefix, Class<?> type) {
        if (keys.isEmpty()) {
            return;
        }
        Binder binder = new Binder(new MapConfigurationPropertySource(keys));
        BindHandler strict = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
        binder.bindOrCreate(ConfigurationPropertyName.of(prefix), Bindable.of(type), strict);
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Object value, Map<String, Object> flat) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(prefix.isEmpty() ? k.toString() : prefix + "." + k, v, flat));
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                flatten(prefix + "[" + i + "]", list.get(i), flat);
            }
        } else {
            flat.put(prefix, value == null ? "" : value.toString());
        }
    }

    @Test
    void shouldResolveEveryRelativeLinkAndAnchor() {
        List<String> errors = new ArrayList<>();
        int checked = 0;
        for (Path page : Markdown.pages(ROOT)) {
            for (Markdown.Link link : Markdown.links(page)) {
                String target = link.target();
                if (target.matches("^[a-z]+:.*")) {       // https:, mailto: ...
                    continue;
                }
                checked++;
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path resolved = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
                String where = ROOT.relativize(page) + ":" + link.line() + ": " + target;
                if (!resolved.startsWith(ROOT)) {
                    errors.add(where + " leaves the repository");
                } else if (!Files.exists(resolved)) {
                    errors.add(where + " does not exist");
                } else if (anchor != null && resolved.toString().endsWith(".md")
                        && !Markdown.anchors(resolved).contains(anchor)) {
                    errors.add(where + ": no such heading in " + ROOT.relativize(resolved) + " (anchors: "
                            + Markdown.anchors(resolved) + ")");
                }
            }
        }
        assertThat(checked).as("relative links").isGreaterThan(10);
        assertThat(errors).isEmpty();
    }

    @Test
    void shouldMakeHeadingSlugsAsGitHubMakesThem() {
        assertThat(Markdown.slug("Start-up")).isEqualTo("start-up");
        assertThat(Markdown.slug("`cq tail <dir>`")).isEqualTo("cq-tail-dir");
        assertThat(Markdown.slug("Listening: @QueueListener")).isEqualTo("listening-queuelistener");
        assertThat(Markdown.slug("Async mode, and what it is for")).isEqualTo("async-mode-and-what-it-is-for");
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
