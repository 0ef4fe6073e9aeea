package com.example.threading.load.service;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The tool's child processes (services, Redis, the topology's hosts) are killed if the tool exits without closing
 * them, and stopped by their own process: SIGTERM, then SIGKILL after a grace period.
 *
 * <p>{@link #stop} is called once per child, by whoever closes it.
 */
public final class ChildProcesses {

    private ChildProcesses() {
    }

    /** Registers a shutdown hook that kills {@code child} should the tool exit first; returns it for {@link #stop}. */
    public static Thread killOnExit(Process child, String hookName) {
        Thread hook = new Thread(child::destroyForcibly, hookName);
        Runtime.getRuntime().addShutdownHook(hook);
        return hook;
    }

    /** Stops {@code child} (SIGTERM, SIGKILL after {@code grace}, each waited for up to {@code grace}) and drops its hook. */
    public static void stop(Process child, Thread hook, Duration grace) {
        try {
            stop(child, grace);
        } finally {
            dropHook(hook);
        }
    }

    /** Drops a hook of {@link #killOnExit} once its child is stopped (nothing when the tool is already exiting). */
    public static void dropHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or will run: it kills the child.
        }
    }

    /** Stops {@code child}: SIGTERM, then SIGKILL after {@code grace}, each waited for up to {@code grace}. */
    public static void stop(Process child, Duration grace) {
        try {
            child.destroy();
            if (!child.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                child.destroyForcibly().waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Ends a child that reads commands on its standard input: says {@code lastWords} (if any) and closes its input, then
     * kills it if it has not exited within 5 s; drops its {@link #killOnExit} hook.
     */
    public static void endByInput(Process child, Thread hook, Optional<String> lastWords) {
        try {
            if (child.isAlive()) {
                lastWords.ifPresent(words -> new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8).println(words));
                child.getOutputStream().close();
            }
            if (!child.waitFor(5, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (IOException e) {
            child.destroyForcibly();
        } catch (InterruptedException e) {
            child.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            dropHook(hook);
        }
    }
}
