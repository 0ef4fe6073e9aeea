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
 * The "Reading the code" table of docs/longpoll-internals.md matches the package: every class in exactly one row, every
 * class a row names exists. It checks what the table says, not how long the classes are.
 */
class LongPollReadingGuideTest {

    private static final Path PAGE = Path.of("docs/longpoll-internals.md");
    private static final Path PACKAGE = Path.of("src/main/java/com/example/threading/longpoll");
    private static final Pattern CLASS_NAME = Pattern.compile("`([A-Z][A-Za-z0-9]*)`");

    @Test
    void everyClassOfThePackageIsInExactlyOneRow() throws IOException {
        List<String> listed = new ArrayList<>();
        rows().values().forEach(listed::addAll);

        assertThat(listed).as("each class once").doesNotHaveDuplicates();
        assertThat(new TreeSet<>(listed)).isEqualTo(new TreeSet<>(classesOfThePackage()));
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
            if (!line.startsWith("| ") || cells.length < 3 || line.startsWith("| part |")) {
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
}
