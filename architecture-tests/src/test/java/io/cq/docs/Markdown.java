package io.cq.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The parts of the project's Markdown pages that {@link DocSnippetsTest} checks: fenced blocks, links, headings. */
final class Markdown {
    private static final Pattern FENCE = Pattern.compile("^(\\s*)```+\\s*(\\S*)\\s*(.*)$");
    private static final Pattern LINK = Pattern.compile("!?\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    /** A fenced block: its page, the line of its first line of code (1-based), language, the rest of its info. */
    record Block(Path page, int firstLine, String language, String info, String code) {
        String where() {
            return page + ":" + firstLine;
        }
    }

    /** A link target as written, and where. */
    record Link(Path page, int line, String target) {
    }

    private Markdown() {
    }

    /** README.md, CONTRIBUTING.md and every page under docs/. */
    static List<Path> pages(Path root) {
        List<Path> pages = new ArrayList<>();
        for (String top : List.of("README.md", "CONTRIBUTING.md")) {
            if (Files.exists(root.resolve(top))) {
                pages.add(root.resolve(top));
            }
        }
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static List<Block> blocks(Path page) {
        List<String> lines = read(page);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            StringBuilder code = new StringBuilder();
            int start = i + 1;
            i++;
            while (i < lines.size() && !lines.get(i).strip().startsWith("```")) {
                code.append(lines.get(i)).append('\n');
                i++;
            }
            blocks.add(new Block(page, start + 1, open.group(2).toLowerCase(Locale.ROOT), open.group(3).strip(),
                    code.toString()));
        }
        return blocks;
    }

    /** Links outside fenced blocks and inline code. */
    static List<Link> links(Path page) {
        List<String> lines = read(page);
        List<Link> links = new ArrayList<>();
        boolean inFence = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.strip().startsWith("```")) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher link = LINK.matcher(INLINE_CODE.matcher(line).replaceAll("``"));
            while (link.find()) {
                links.add(new Link(page, i + 1, link.group(1)));
            }
        }
        return links;
    }

    /** The anchors GitHub gives the page's headings (lower case, punctuation dropped, spaces to dashes, -1, -2 ...). */
    static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : read(page)) {
            if (line.strip().startsWith("```")) {
                inFence = !inFence;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (inFence || !heading.matches()) {
                continue;
            }
            String slug = slug(heading.group(1));
            int count = seen.merge(slug, 1, Integer::sum);
            anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
        return anchors;
    }

    static String slug(String heading) {
        String text = heading.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1")     // a link's text only
                .toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    private static List<String> read(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
