package com.example.threading.load.engine.http;

import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * An independent client beside the tool's own: h2load (nghttp2's C load generator) sends to the same URL at the
 * same rate for the same time, and logs every request ({@code --log-file}: start in µs since the epoch, status,
 * µs until the end of the response), which is read into an HdrHistogram like the tool's. h2load paces each
 * connection with {@code --rps} and measures from when it really sent (a stalled connection delays its next
 * request, so its tail is, if anything, an underestimate); the connections share the rate, so one slow answer
 * holds up only its own connection.
 *
 * <p>Not thread-safe: confined to the thread that started it (the scenario's thread). h2load is a child process,
 * bounded by its {@code -D} duration and killed by PID at {@link #await}'s deadline.
 */
public final class CrossCheck implements AutoCloseable {

    /** How one h2load run went: its 2xx latencies (µs), the requests it logged, and what it printed. */
    public record Result(Histogram histogram, long requests, long ok, int exitCode, String output) {

        /** Percentiles of the 2xx, in ms. */
        public LatencySummary latencyMs() {
            return LatencySummary.of(histogram);
        }
    }

    private static final int RATE_PER_CONNECTION = 25;

    private final Process process;
    private final Path logFile;
    private final Path outputFile;

    private CrossCheck(Process process, Path logFile, Path outputFile) {
        this.process = process;
        this.logFile = logFile;
        this.outputFile = outputFile;
    }

    /** The command line: {@code connections} connections sharing {@code ratePerSecond} for {@code length}. */
    static List<String> command(Path h2load, URI url, Protocol protocol, int ratePerSecond, Duration length, Path logFile) {
        return H2load.command(h2load, url, protocol, ratePerSecond, H2load.connectionsFor(ratePerSecond, RATE_PER_CONNECTION, Integer.MAX_VALUE),
                length, logFile);
    }

    /** Starts h2load against {@code url} (its log and output files go to {@code folder}, named after {@code name}). */
    public static CrossCheck start(Path h2load, URI url, Protocol protocol, int ratePerSecond, Duration length, Path folder, String name)
            throws IOException {
        Path logFile = folder.resolve(name + ".tsv");
        Path outputFile = folder.resolve(name + ".txt");
        Process process = new ProcessBuilder(command(h2load, url, protocol, ratePerSecond, length, logFile))
                .redirectErrorStream(true).redirectOutput(outputFile.toFile()).start();
        return new CrossCheck(process, logFile, outputFile);
    }

    /** Waits for h2load to end (killing it at the deadline, System.nanoTime) and reads its log. */
    public Result await(long deadlineNanos) throws IOException, InterruptedException {
        long wait = deadlineNanos - System.nanoTime();
        if (wait <= 0 || !process.waitFor(wait, TimeUnit.NANOSECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        int exitCode = process.isAlive() ? -1 : process.exitValue();
        String output = Files.isRegularFile(outputFile) ? Files.readString(outputFile) : "";
        Histogram histogram = new Histogram(H2load.HIGHEST_MICROS, 3);
        long[] counts = readLog(logFile, histogram);
        return new Result(histogram, counts[0], counts[1], exitCode, output);
    }

    /** Kills h2load if it is still running (a run cut short); the files stay. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    /** The log file h2load writes. */
    public Path logFile() {
        return logFile;
    }

    /**
     * Reads an h2load --log-file (tab-separated: start µs since the epoch, status, µs to the end of the response)
     * into {@code histogram} (2xx only); returns {requests, 2xx}. Malformed lines are skipped.
     */
    static long[] readLog(Path logFile, Histogram histogram) throws IOException {
        long requests = 0;
        long ok = 0;
        if (!Files.isRegularFile(logFile)) {
            return new long[] {0, 0};
        }
        try (Stream<String> lines = Files.lines(logFile)) {
            for (String line : (Iterable<String>) lines::iterator) {
                Optional<H2load.LogLine> request = H2load.LogLine.parse(line);
                if (request.isEmpty()) {
                    continue;
                }
                requests++;
                if (request.get().outcome() == Outcome.OK) {
                    ok++;
                    histogram.recordValue(request.get().micros());
                }
            }
        }
        return new long[] {requests, ok};
    }
}
