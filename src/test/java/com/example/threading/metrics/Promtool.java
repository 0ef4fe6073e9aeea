package com.example.threading.metrics;

import com.example.threading.testing.Prerequisites;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's Prometheus tools ({@code apt-get install -y prometheus}: {@code promtool} and {@code prometheus}) for the
 * tests: found on the PATH, else the test fails under {@code CI=true} and is skipped elsewhere
 * ({@link Prerequisites#unavailable}). {@link #run} runs promtool with a bound of 60 s.
 *
 * <p>Thread-safety: stateless.
 */
final class Promtool {

    static final String INSTALL = "apt-get install -y prometheus";

    private Promtool() {
    }

    /** The executable {@code name} on the PATH; fails or skips the test when there is none. */
    static Path binary(String name) {
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(directory, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw Prerequisites.unavailable(name + " is not installed", INSTALL);
    }

    /** promtool's exit code and output (stdout and stderr) for {@code arguments}, with {@code stdin} as its input. */
    static Result run(String stdin, String... arguments) {
        List<String> command = new ArrayList<>(List.of(binary("promtool").toString()));
        command.addAll(List.of(arguments));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try (var input = process.getOutputStream()) {
                input.write(stdin.getBytes(StandardCharsets.UTF_8));
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("promtool " + arguments[0] + " ran longer than 60 s");
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** What promtool said. */
    record Result(int exitCode, String output) {
    }
}
