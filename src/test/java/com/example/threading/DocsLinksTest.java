package com.example.threading;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the documentation's relative links honest: every relative link in README.md, docs/*.md, docs/results/*.md
 * and load/README.md points at a
 * file or folder that exists and, for {@code #anchor} links, at a heading of that Markdown file, with the anchor
 * GitHub derives from the heading. Links inside code (fenced blocks, inline code) are not links; absolute URLs are
 * not checked (the build is offline-safe).
 */
class DocsLinksTest {

    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern INLINE_LINK_IN_HEADING = Pattern.compile("\\[([^\\]]*)]\\([^)]*\\)");
    private static final Pattern URL_SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    @Test
    void everyRelativeLinkPointsAtAnExistingFileAndHeading() {
        List<Path> pages = new ArrayList<>(pages());
        pages.addAll(results());
        pages.add(Path.of("load", "README.md"));
        assertThat(pages).contains(Path.of("README.md"));
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            for (String target : links(read(page))) {
                if (URL_SCHEME.matcher(target).find()) {
                    continue;
                }
                checked++;
                problem(page, target).ifPresent(broken::add);
            }
        }
        assertThat(checked).as("relative links found (the scanner works)").isGreaterThan(50);
        assertThat(broken).as("broken relative links").isEmpty();
    }

    @Test
    void everyPageUnderDocsIsLinkedFromTheReadme() {
        Set<String> linked = new LinkedHashSet<>();
        for (String target : links(read(Path.of("README.md")))) {
            linked.add(target.replaceFirst("#.*", ""));
        }
        for (Path page : pages()) {
            if (!page.equals(Path.of("README.md"))) {
                assertThat(linked).as("README links %s", page).contains(page.toString().replace('\\', '/'));
            }
        }
    }

    @Test
    void reportsAMissingFileAndAMissingHeading() {
        Path readme = Path.of("README.md");
        assertThat(problem(readme, "docs/no-such-page.md")).isPresent();
        assertThat(problem(readme, "docs/work.md#no-such-heading")).isPresent();
        assertThat(problem(readme, "#no-such-heading")).isPresent();
        assertThat(problem(readme, "docs/work.md#contract")).isEmpty();
        assertThat(problem(readme, "#quick-start")).isEmpty();
        assertThat(links("see [a](x.md) and `[b](y.md)`\n```\n[c](z.md)\n```\n[`d`](w.md#e \"title\")"))
                .containsExactly("x.md", "w.md#e");
    }

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(anchors("# Quick start\n## Quick start\n### `blocking` — the request waits\n"
                + "```\n# not a heading\n```\n## Admin port (127.0.0.1:8081)\n## HTTP/1.1 and [h2c](x.md)\n"
                + "## `/fanout?n=100&ms=1000` by `via`\n## snake_case and so-called\n"))
                .containsExactly("quick-start", "quick-start-1", "blocking--the-request-waits",
                        "admin-port-1270018081", "http11-and-h2c", "fanoutn100ms1000-by-via",
                        "snake_case-and-so-called");
    }

    /** What is wrong with a link from {@code page} to {@code target}, if anything. */
    private static Optional<String> problem(Path page, String target) {
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? "" : target.substring(hash + 1);
        Path resolved = file.isEmpty()
                ? page
                : page.toAbsolutePath().getParent().resolve(URLDecoder.decode(file, StandardCharsets.UTF_8)).normalize();
        if (!Files.exists(resolved)) {
            return Optional.of(page + ": " + target + " (no such file: " + resolved + ")");
        }
        if (!anchor.isEmpty()) {
            if (!resolved.toString().endsWith(".md") || Files.isDirectory(resolved)) {
                return Optional.of(page + ": " + target + " (an anchor into a file that is not Markdown)");
            }
            List<String> anchors = anchors(read(resolved));
            if (!anchors.contains(URLDecoder.decode(anchor, StandardCharsets.UTF_8))) {
                return Optional.of(page + ": " + target + " (no heading with that anchor; headings: " + anchors + ")");
            }
        }
        return Optional.empty();
    }

    /** The targets of the inline links outside code, in order. */
    private static List<String> links(String markdown) {
        List<String> targets = new ArrayList<>();
        for (String line : outsideFences(markdown)) {
            Matcher link = LINK.matcher(blankInlineCode(line));
            while (link.find()) {
                targets.add(link.group(1));
            }
        }
        return targets;
    }

    /** The anchors GitHub gives the ATX headings outside code, with -1, -2 ... for repeated ones. */
    private static List<String> anchors(String markdown) {
        List<String> anchors = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : outsideFences(markdown)) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                String slug = slug(heading.group(1));
                int repeats = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(repeats == 0 ? slug : slug + "-" + repeats);
            }
        }
        return anchors;
    }

    /** GitHub's rule: the heading's text, lower case, punctuation other than '-' and '_' removed, spaces to '-'. */
    private static String slug(String heading) {
        String text = INLINE_LINK_IN_HEADING.matcher(heading).replaceAll("$1").toLowerCase(Locale.ROOT);
        StringBuilder slug = new StringBuilder();
        text.codePoints().forEach(c -> {
            if (c == ' ') {
                slug.append('-');
            } else if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            }
        });
        return slug.toString();
    }

    /** Inline code keeps its length but loses the brackets that could read as a link. */
    private static String blankInlineCode(String line) {
        Matcher code = INLINE_CODE.matcher(line);
        StringBuilder out = new StringBuilder();
        while (code.find()) {
            code.appendReplacement(out, Matcher.quoteReplacement(code.group().replaceAll("[\\[\\]()]", " ")));
        }
        return code.appendTail(out).toString();
    }

    private static List<String> outsideFences(String markdown) {
        List<String> lines = new ArrayList<>();
        boolean inFence = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
            } else if (!inFence) {
                lines.add(line);
            }
        }
        return lines;
    }

    private static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException("run the tests from the project root (docs/ not found)", e);
        }
        return pages;
    }

    /** The dated runs under docs/results/ (linked from the pages, not from the README), checked for links too. */
    private static List<Path> results() {
        try (Stream<Path> results = Files.list(Path.of("docs", "results"))) {
            return results.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("run the tests from the project root (docs/results/ not found)", e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("run the tests from the project root: " + file, e);
        }
    }
}
