package com.example.threading.load.service;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The lines a child JVM of the tool says on its standard output (the probe, the long-poll client processes), read by a
 * daemon thread into a queue, and waited for by prefix with a deadline.
 *
 * <p>Thread-safety: one reader thread adds lines; one caller (the scenario's thread) waits for them.
 */
public final class ChildOutput {

    private static final String END = "\u0000end";

    private final Process process;
    private final String description;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private ChildOutput(Process process, String description) {
        this.process = process;
        this.description = description;
    }

    /** Starts reading {@code process}'s output on a daemon thread; {@code description} names it in errors, e.g. "the probe process (see x.log)". */
    public static ChildOutput read(Process process, String threadName, String description) {
        ChildOutput output = new ChildOutput(process, description);
        Thread reader = new Thread(output::readLines, threadName);
        reader.setDaemon(true);
        reader.start();
        return output;
    }

    /**
     * Waits until the child says a line starting with {@code prefix} and returns it; skips other lines. Throws when the
     * deadline (System.nanoTime) passes, after running {@code onTimeout}, or when the child's output ends first.
     */
    public String next(String prefix, long deadlineNanos, Runnable onTimeout) throws IOException, InterruptedException {
        while (true) {
            long wait = deadlineNanos - System.nanoTime();
            String line = wait <= 0 ? null : lines.poll(wait, TimeUnit.NANOSECONDS);
            if (line == null) {
                onTimeout.run();
                throw new IOException(description + " did not say '" + prefix.trim() + "' in time");
            }
            if (line.equals(END)) {
                throw new IOException(description + " ended (exit " + process.waitFor() + ") before it said '" + prefix.trim() + "'");
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    private void readLines() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                lines.add(line);
            }
        } catch (IOException ended) {
            // The child is gone.
        } finally {
            lines.add(END);
        }
    }
}
