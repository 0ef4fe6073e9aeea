package com.example.threading.load.engine.http;

import com.example.threading.load.service.ChildProcesses;
import com.example.threading.load.service.CpuClock;
import com.example.threading.load.service.ServerCpu;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One endpoint under h2load in a closed loop ({@link H2load#closedLoop}): a warm-up, then a measured stretch whose
 * bounds h2load announces on its output. The server's CPU time ({@code utime + stime}) is read the moment each bound is
 * announced, so it covers the stretch whose requests h2load counts ({@link H2load.Summary}) and neither the warm-up nor
 * the setting up and closing of the connections. h2load's output is kept as {@code <name>.txt}.
 *
 * <p>Thread-safety: {@link #run} is called on the scenario's thread; one reader thread per run follows h2load's output
 * and reads the CPU at the bounds into volatile fields, which the run reads after joining it.
 */
public final class H2loadStretch {

    /** What to load: the URL, connections, warm-up (zero: none) and measured duration; with a body file, a POST of it with the headers. */
    public record Spec(String name, URI url, int connections, Duration warmup, Duration measured, Optional<Path> body, List<String> headers) {

        /** A spec; the headers are copied. */
        public Spec {
            headers = List.copyOf(headers);
        }
    }

    /**
     * How one run went: the command, h2load's counts (empty when it printed none), the measured stretch's bounds on
     * {@link System#nanoTime()} and the server's CPU over it (both -1 when h2load did not announce both bounds or the
     * server's CPU is unknown), h2load's exit code (-1 when it had to be killed).
     */
    public record Result(Spec spec, List<String> command, Optional<H2load.Summary> summary, long startNanos, long endNanos,
                         long serverCpuNanos, int exitCode) {

        /** Whether the stretch was measured: both bounds seen, the server's CPU read at both, h2load's counts printed. */
        public boolean measured() {
            return startNanos >= 0 && endNanos > startNanos && serverCpuNanos >= 0 && summary.isPresent();
        }

        /** The measured stretch's length in seconds (NaN when not measured). */
        public double seconds() {
            return measured() ? (endNanos - startNanos) / 1e9 : Double.NaN;
        }

        /** 2xx answers per second of the stretch (NaN when not measured). */
        public double okPerSecond() {
            return measured() ? summary.get().status2xx() / seconds() : Double.NaN;
        }

        /** The server's CPU per 2xx answer in microseconds (NaN when not measured or nothing was answered 2xx). */
        public double serverCpuMicrosPerOk() {
            return measured() && summary.get().status2xx() > 0 ? serverCpuNanos / 1e3 / summary.get().status2xx() : Double.NaN;
        }

        /** The server's CPU during the stretch in % of all cores (NaN when not measured). */
        public double serverCpuPercent() {
            return measured() ? 100.0 * serverCpuNanos / ((endNanos - startNanos) * (double) CpuClock.cores()) : Double.NaN;
        }
    }

    private static final Duration STOP_GRACE = Duration.ofSeconds(2);

    private final Process process;
    private final ServerCpu server;
    private final Path outputFile;
    private final StringBuilder output = new StringBuilder();
    private volatile long startNanos = -1;
    private volatile long endNanos = -1;
    private volatile long startCpuNanos = -1;
    private volatile long endCpuNanos = -1;

    private H2loadStretch(Process process, ServerCpu server, Path outputFile) {
        this.process = process;
        this.server = server;
        this.outputFile = outputFile;
    }

    /**
     * Runs h2load for {@code spec} against the server whose CPU {@code server} reads, its output into {@code folder},
     * and waits for it to end; h2load is killed at {@code deadlineNanos} ({@link System#nanoTime()}) and stopped by its
     * own process handle however the run ends.
     */
    public static Result run(Path h2load, ServerCpu server, Spec spec, Path folder, long deadlineNanos) throws IOException, InterruptedException {
        List<String> command = H2load.closedLoop(h2load, spec.url(), spec.connections(), spec.warmup(), spec.measured(), spec.body(), spec.headers());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread hook = ChildProcesses.killOnExit(process, "h2load-" + spec.name() + "-killer");
        H2loadStretch stretch = new H2loadStretch(process, server, folder.resolve(spec.name() + ".txt"));
        Thread reader = new Thread(stretch::follow, "h2load-output-" + spec.name());
        reader.setDaemon(true);
        reader.start();
        boolean ended = false;
        try {
            long wait = deadlineNanos - System.nanoTime();
            ended = wait > 0 && process.waitFor(wait, TimeUnit.NANOSECONDS);
            if (ended) {
                // Its last lines (the counts) are still in the pipe: read them before stopping closes the pipe.
                reader.join(TimeUnit.SECONDS.toMillis(10));
            }
        } finally {
            ChildProcesses.stop(process, hook, STOP_GRACE);
        }
        reader.join(TimeUnit.SECONDS.toMillis(10));
        long cpu = stretch.startCpuNanos >= 0 && stretch.endCpuNanos >= 0 ? stretch.endCpuNanos - stretch.startCpuNanos : -1;
        Optional<H2load.Summary> summary = reader.isAlive() ? Optional.empty() : H2load.Summary.parse(stretch.output.toString());
        return new Result(spec, command, summary, stretch.startNanos, stretch.endNanos, cpu, ended ? process.exitValue() : -1);
    }

    /** The reader thread: copies h2load's output to its file and reads the server's CPU when a bound is announced. */
    private void follow() {
        InputStream stream = process.getInputStream();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
             BufferedWriter file = Files.newBufferedWriter(outputFile)) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.contains(H2load.MEASURED_START) && startNanos < 0) {
                    startCpuNanos = cpuNanos();
                    startNanos = System.nanoTime();
                } else if (line.contains(H2load.MEASURED_END) && endNanos < 0) {
                    endCpuNanos = cpuNanos();
                    endNanos = System.nanoTime();
                }
                output.append(line).append('\n');
                file.write(line);
                file.newLine();
                file.flush();
            }
        } catch (IOException e) {
            // h2load's output ended early (it was killed): what was read stands, and the run says whether it was measured.
        }
    }

    private long cpuNanos() {
        return server.cpuTime().map(Duration::toNanos).orElse(-1L);
    }
}
