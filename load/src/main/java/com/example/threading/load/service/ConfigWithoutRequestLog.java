package com.example.threading.load.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A copy of the service's config.yml whose request log is off ({@code server.requestLog.appenders: []}), every other
 * line as it is: what a run with {@code --request-log off} starts the service with, so that the log's cost per
 * request is the difference between two runs of the same scenario. The file is edited as text, not re-serialized: a
 * YAML writer would quote values such as an empty {@code ${VAR:-}}, which the service then reads as an empty string
 * rather than as nothing.
 */
final class ConfigWithoutRequestLog {

    private static final Pattern REQUEST_LOG = Pattern.compile("^( +)requestLog:\\s*(#.*)?$");

    private ConfigWithoutRequestLog() {
    }

    /** Writes the copy of {@code config} into {@code folder} and returns it. */
    static Path write(Path config, Path folder) throws IOException {
        List<String> lines = Files.readAllLines(config);
        List<String> copy = new ArrayList<>(lines.size());
        boolean replaced = false;
        for (int i = 0; i < lines.size(); i++) {
            Matcher key = REQUEST_LOG.matcher(lines.get(i));
            if (replaced || !key.matches()) {
                copy.add(lines.get(i));
                continue;
            }
            int indent = key.group(1).length();
            copy.add(lines.get(i));
            copy.add(" ".repeat(indent + 2) + "appenders: []");
            boolean inAppenders = false;
            while (i + 1 < lines.size() && (lines.get(i + 1).isBlank() || indentOf(lines.get(i + 1)) > indent)) {
                i++; // the section's own lines: its other keys stay (type, format), its appenders and their settings go
                String line = lines.get(i);
                if (!line.isBlank() && indentOf(line) == indent + 2) {
                    inAppenders = line.stripLeading().startsWith("appenders:");
                }
                if (!inAppenders) {
                    copy.add(line);
                }
            }
            replaced = true;
        }
        if (!replaced) {
            throw new IllegalStateException(config + " has no server.requestLog section: cannot turn its request log off");
        }
        Path written = folder.resolve("config-without-request-log.yml");
        Files.write(written, copy);
        return written;
    }

    private static int indentOf(String line) {
        return line.length() - line.stripLeading().length();
    }
}
