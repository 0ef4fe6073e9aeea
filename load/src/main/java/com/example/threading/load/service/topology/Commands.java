package com.example.threading.load.service.topology;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Short system commands ({@code ip}, {@code tc}, {@code nft}, {@code kill}) run to completion with a time bound, their
 * output captured for the error message.
 */
public final class Commands {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private Commands() {
    }

    /** Runs {@code command}; returns its output (stdout and stderr), or throws with it when the command fails. */
    static String run(List<String> command) throws IOException {
        Result result = attempt(command);
        if (result.exitCode() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + result.exitCode() + ": " + result.output().strip());
        }
        return result.output();
    }

    /** Runs {@code command} and returns its exit code and output, whatever they are. */
    static Result attempt(List<String> command) throws IOException {
        return attempt(command, TIMEOUT);
    }

    /** As {@link #attempt(List)}, within {@code timeout}. */
    static Result attempt(List<String> command, Duration timeout) throws IOException {
        List<String> resolved = new ArrayList<>(command);
        resolved.set(0, Prerequisites.which(command.get(0)).toString());
        Process process = new ProcessBuilder(resolved).redirectErrorStream(true).start();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        Thread reader = new Thread(() -> copy(process.getInputStream(), output), "command-output");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within " + timeout.toSeconds() + " s");
            }
            reader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + String.join(" ", command), e);
        }
        synchronized (output) {
            return new Result(process.exitValue(), output.toString(StandardCharsets.UTF_8));
        }
    }

    /** Exit code and output of a command. */
    public record Result(int exitCode, String output) {
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        byte[] buffer = new byte[8192];
        try (in) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                synchronized (out) {
                    out.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
