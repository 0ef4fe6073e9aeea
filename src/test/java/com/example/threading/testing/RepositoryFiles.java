package com.example.threading.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The repository's own files (Dockerfile, config.yml, deploy/) read as text by the tests that keep them consistent. */
public final class RepositoryFiles {

    private RepositoryFiles() {
    }

    /** The file's text; tests run from the project root. */
    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException("run the tests from the project root: " + file, e);
        }
    }

    /** The first group of the first match of {@code regex} in {@code text}; fails the test when there is none. */
    public static String group(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        assertThat(matcher.find()).as("%s found", regex).isTrue();
        return matcher.group(1);
    }
}
