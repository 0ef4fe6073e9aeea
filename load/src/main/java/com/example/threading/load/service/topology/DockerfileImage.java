package com.example.threading.load.service.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * What a Dockerfile's final stage gives the process it runs: its {@code ENV} variables and its {@code ENTRYPOINT},
 * turned into a command on this machine by mapping the files the image holds to the files they were copied from.
 * Only the forms a Java service's Dockerfile uses are understood: {@code ENV k=v …} (and {@code ENV k v}), an
 * exec-form {@code ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS …"]} or an exec-form java command; anything else
 * is refused rather than guessed.
 */
public final class DockerfileImage {

    private static final Pattern REFERENCE = Pattern.compile("^\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)}|([A-Za-z_][A-Za-z0-9_]*))$");

    private final Path file;
    private final Map<String, String> environment;
    private final List<String> entrypoint;

    private DockerfileImage(Path file, Map<String, String> environment, List<String> entrypoint) {
        this.file = file;
        this.environment = Map.copyOf(environment);
        this.entrypoint = List.copyOf(entrypoint);
    }

    /** Reads the final stage of {@code file}. */
    public static DockerfileImage read(Path file) throws IOException {
        Map<String, String> environment = new LinkedHashMap<>();
        List<String> entrypoint = List.of();
        for (String instruction : instructions(Files.readAllLines(file))) {
            String[] parts = instruction.split("\\s+", 2);
            String keyword = parts[0].toUpperCase(Locale.ROOT);
            String arguments = parts.length > 1 ? parts[1].trim() : "";
            switch (keyword) {
                case "FROM" -> {
                    environment.clear();
                    entrypoint = List.of();
                }
                case "ENV" -> environment.putAll(env(arguments));
                case "ENTRYPOINT" -> entrypoint = execForm(file, arguments);
                default -> {
                    // RUN, COPY, USER, ...: nothing the process's environment or command line depends on here.
                }
            }
        }
        if (entrypoint.isEmpty()) {
            throw new IOException(file + ": the final stage has no exec-form ENTRYPOINT");
        }
        return new DockerfileImage(file, environment, entrypoint);
    }

    /** The final stage's ENV variables, in no particular order. */
    public Map<String, String> environment() {
        return environment;
    }

    /**
     * The entrypoint as a command on this machine: {@code java} is {@code java}, every path of {@code files} (a path in
     * the image → the file it holds here) is replaced, {@code $VAR} is expanded from {@code environment} (split on
     * blanks, as the shell would), {@code sh -c "exec …"} is run directly.
     */
    public List<String> command(Path java, Map<String, Path> files, Map<String, String> environment) {
        List<String> words = new ArrayList<>(entrypoint);
        if (words.size() == 3 && words.get(0).equals("sh") && words.get(1).equals("-c")) {
            words = new ArrayList<>(List.of(words.get(2).trim().split("\\s+")));
            if (!words.isEmpty() && words.get(0).equals("exec")) {
                words.remove(0);
            }
        }
        if (words.isEmpty() || !words.get(0).equals("java")) {
            throw new IllegalStateException(file + ": the entrypoint does not run java: " + entrypoint);
        }
        List<String> command = new ArrayList<>(List.of(java.toString()));
        for (String word : words.subList(1, words.size())) {
            Matcher reference = REFERENCE.matcher(word);
            if (reference.matches()) {
                String name = reference.group(1) != null ? reference.group(1) : reference.group(2);
                String value = environment.getOrDefault(name, "").trim();
                if (!value.isEmpty()) {
                    command.addAll(List.of(value.split("\\s+")));
                }
            } else if (word.contains("$")) {
                throw new IllegalStateException(file + ": cannot expand " + word + " in the entrypoint " + entrypoint);
            } else if (word.startsWith("/")) {
                Path local = files.get(word);
                if (local == null) {
                    throw new IllegalStateException(file + ": the entrypoint reads " + word + ", which has no local file (known: " + files.keySet() + ")");
                }
                command.add(local.toString());
            } else {
                command.add(word);
            }
        }
        return command;
    }

    /** The logical lines: continuations joined, comments and blank lines dropped. */
    private static List<String> instructions(List<String> lines) {
        List<String> instructions = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String raw : lines) {
            String line = raw.strip();
            if (line.startsWith("#") || (line.isEmpty() && current.length() == 0)) {
                continue;
            }
            boolean continues = line.endsWith("\\");
            current.append(continues ? line.substring(0, line.length() - 1) : line).append(' ');
            if (!continues) {
                instructions.add(current.toString().trim());
                current.setLength(0);
            }
        }
        if (current.length() > 0) {
            instructions.add(current.toString().trim());
        }
        return instructions;
    }

    private static Map<String, String> env(String arguments) {
        Map<String, String> variables = new LinkedHashMap<>();
        List<String> words = words(arguments);
        if (!words.isEmpty() && !words.get(0).contains("=")) {
            // The legacy form, ENV key value with spaces.
            variables.put(words.get(0), String.join(" ", words.subList(1, words.size())));
            return variables;
        }
        for (String pair : words) {
            String[] keyValue = pair.split("=", 2);
            variables.put(keyValue[0], keyValue.length > 1 ? keyValue[1] : "");
        }
        return variables;
    }

    /** Blank-separated words with the shell's quotes: "…" (with \\ escapes) and '…' removed, key="a b" one word. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < text.length()) {
                    word.append(text.charAt(++i));
                } else {
                    word.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inWord = true;
            } else if (Character.isWhitespace(c)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(c);
                inWord = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("unclosed quote in: " + text);
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words;
    }

    private static List<String> execForm(Path file, String arguments) throws IOException {
        if (!arguments.startsWith("[")) {
            throw new IOException(file + ": only an exec-form ENTRYPOINT [\"…\"] is understood, not " + arguments);
        }
        List<String> words = new ArrayList<>();
        JsonNode array = new ObjectMapper().readTree(arguments);
        array.forEach(word -> words.add(word.asText()));
        return words;
    }
}
