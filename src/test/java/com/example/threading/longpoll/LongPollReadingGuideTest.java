package com.example.threading.longpoll;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The "Reading the code" table of docs/longpoll.md matches the package: every class in exactly one row, and each row's
 * "about N" lines of code within 5 % of what the row's classes hold now.
 */
class LongPollReadingGuideTest {

    private static final Path PAGE = Path.of("docs/longpoll.md");
    private static final Path PACKAGE = Path.of("src/main/java/com/example/threading/longpoll");
    private static final Pattern CLASS_NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*)`");
    private static final Pattern ABOUT = Pattern.compile("about ([0-9,]+)");

    @Test
    void everyClassOfThePackageIsInExactlyOneRow() throws IOException {
        List<String> listed = new ArrayList<>();
        rows().values().forEach(listed::addAll);

        assertThat(listed).as("each class once").doesNotHaveDuplicates();
        assertThat(new TreeSet<>(listed)).isEqualTo(new TreeSet<>(classesOfThePackage()));
    }

    @Test
    void eachRowsFigureIsWithinFivePercentOfItsLinesOfCode() throws IOException {
        Map<String, List<String>> rows = rows();
        assertThat(rows).hasSize(5);
        for (Map.Entry<String, List<String>> row : rows.entrySet()) {
            Matcher figure = ABOUT.matcher(row.getKey());
            assertThat(figure.find()).as("a figure in " + row.getKey()).isTrue();
            long stated = Long.parseLong(figure.group(1).replace(",", ""));
            long counted = 0;
            for (String name : row.getValue()) {
                counted += linesOfCode(Files.readString(PACKAGE.resolve(name + ".java")));
            }
            assertThat((double) Math.abs(stated - counted)).as("row \"%s\": stated %d, counted %d", row.getKey(), stated, counted)
                    .isLessThanOrEqualTo(counted * 0.05);
        }
    }

    @Test
    void linesOfCodeLeaveOutBlanksAndCommentsButNotStrings() {
        String source = """
                /** A class comment
                 * over lines. */
                final class A { // trailing

                    String url = "http://example.org/*not a comment*/";
                    /* one */ int b; /* two
                    still a comment */
                    char slash = '/';
                }
                """;

        assertThat(linesOfCode(source)).isEqualTo(5);
    }

    /** Each table row of the page's "Reading the code" section: its whole line, and the classes it names, in order. */
    private static Map<String, List<String>> rows() throws IOException {
        String page = Files.readString(PAGE);
        int start = page.indexOf("\n## Reading the code\n");
        assertThat(start).as("the section on the page").isPositive();
        int end = page.indexOf("\n## ", start + 1);
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : page.substring(start, end).split("\n")) {
            String[] cells = line.split("\\|");
            if (!line.startsWith("| ") || cells.length < 4 || !ABOUT.matcher(cells[3]).find()) {
                continue; // not a row, or the header
            }
            List<String> names = new ArrayList<>();
            Matcher name = CLASS_NAME.matcher(cells[2]);
            while (name.find()) {
                names.add(name.group(1));
            }
            rows.put(line, names);
        }
        return rows;
    }

    private static List<String> classesOfThePackage() throws IOException {
        try (Stream<Path> files = Files.list(PACKAGE)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".java") && !name.equals("package-info.java"))
                    .map(name -> name.substring(0, name.length() - ".java".length()))
                    .toList();
        }
    }

    /** Lines holding at least one character of code: not blank, not only comment; string and char literals are code. */
    private static int linesOfCode(String source) {
        int lines = 0;
        boolean code = false;
        boolean blockComment = false;
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            char next = i + 1 < source.length() ? source.charAt(i + 1) : 0;
            if (c == '\n') {
                lines += code ? 1 : 0;
                code = false;
            } else if (blockComment) {
                if (c == '*' && next == '/') {
                    blockComment = false;
                    i++;
                }
            } else if (c == '/' && next == '*') {
                blockComment = true;
                i++;
            } else if (c == '/' && next == '/') {
                while (i + 1 < source.length() && source.charAt(i + 1) != '\n') {
                    i++;
                }
            } else if (c == '"' || c == '\'') {
                code = true;
                i = endOfLiteral(source, i);
            } else if (!Character.isWhitespace(c)) {
                code = true;
            }
        }
        return lines + (code ? 1 : 0);
    }

    /**
     * The index of the quote that closes the string or char literal opened at {@code open}, or of the line's last
     * character. A text block is read as literals line by line, so its lines count as code (unless one looks like a
     * comment; the package has no text block).
     */
    private static int endOfLiteral(String source, int open) {
        char quote = source.charAt(open);
        for (int i = open + 1; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == quote || c == '\n') {
                return c == '\n' ? i - 1 : i;
            }
        }
        return source.length() - 1;
    }
}
