package com.example.threading.load.engine.http;

import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.service.ChildProcesses;
import com.example.threading.load.service.CpuClock;
import com.example.threading.load.service.Target;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * One loader as an h2load process ({@link H2load}): {@code connections} connections share a fixed rate for a fixed
 * time, and every request h2load logs is recorded, as it is written, into a {@link PhaseRecorder} like the Java
 * loaders' (same outcomes, one-second intervals with the server's CPU, an .hlog), so the report treats both alike.
 * h2load measures from when it really sent a request (a connection that is still waiting for an answer sends its
 * next request late), not from the intended send time; it costs a few % of a core where a Java client costs nearly
 * as much CPU per request as the server.
 *
 * <p>Thread-safety: driven by the thread that made it ({@link #begin}, {@link #isDone}, {@link #await},
 * {@link #histogram}, {@link #cpuPercent}); one reader thread of its own follows h2load's log into the recorder
 * (made for concurrent writers) and samples the process's CPU into volatile fields; {@link #await} joins it before
 * it reads them.
 */
public final class H2loadLoad implements Load {

    /** What h2load sends: to {@code url} (its path shown as {@code pathLabel}) at a fixed rate over some connections. */
    public record Spec(String name, Protocol protocol, URI url, String pathLabel, int ratePerSecond, int connections, Duration runFor) {

        /**
         * A loader at {@code ratePerSecond} over connections of about {@code perConnection} req/s each, at most
         * {@code mostConnections}. h2load fires every connection's timer at the same instant, every max(10 ms, 1/rate) s,
         * so few busy connections send smaller bursts; but a connection sends one request at a time, so at r req/s it
         * keeps up only while answers take less than 1/r s (at 100 req/s, 10 ms).
         */
        public static Spec atRate(String name, Protocol protocol, URI url, String pathLabel, int ratePerSecond, int perConnection,
                                  int mostConnections, Duration runFor) {
            return new Spec(name, protocol, url, pathLabel, ratePerSecond, H2load.connectionsFor(ratePerSecond, perConnection, mostConnections),
                    runFor);
        }
    }

    private static final Duration CPU_SAMPLE = Duration.ofSeconds(1);

    private final Path h2load;
    private final Spec spec;
    private final PhaseRecorder recorder;
    private final Path logFile;
    private final Path outputFile;
    private final Thread owner = Thread.currentThread();
    private Process process;
    private Thread hook;
    private Thread reader;
    private volatile boolean stopReading;
    private volatile long cpuNanos;
    private volatile long cpuWallNanos;
    private long startNanos;

    /** Prepares the loader against the target; nothing runs until {@link #begin()}. */
    public H2loadLoad(Path h2load, Target target, Spec spec, Path reportDirectory) {
        this.h2load = h2load;
        this.spec = spec;
        String file = GeneratedLoad.fileName(spec.name());
        this.recorder = new PhaseRecorder(spec.name(), reportDirectory.resolve(file + ".hlog"), target.serverCpu());
        this.logFile = reportDirectory.resolve(file + ".tsv");
        this.outputFile = reportDirectory.resolve(file + ".txt");
    }

    /** The command line this loader runs. */
    public List<String> command() {
        return H2load.command(h2load, spec.url(), spec.protocol(), spec.ratePerSecond(), spec.connections(), spec.runFor(), logFile);
    }

    /** Starts h2load and the reader that follows its log. */
    @Override
    public void begin() {
        checkOwner();
        if (process != null) {
            throw new IllegalStateException(spec.name() + " has begun already");
        }
        try {
            Files.deleteIfExists(logFile);
            startNanos = System.nanoTime();
            cpuWallNanos = startNanos;
            process = new ProcessBuilder(command()).redirectErrorStream(true).redirectOutput(outputFile.toFile()).start();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("h2load could not start: " + e.getMessage(), e);
        }
        hook = ChildProcesses.killOnExit(process, "h2load-" + spec.name() + "-killer");
        reader = new Thread(this::follow, "h2load-log-" + spec.name());
        reader.setDaemon(true);
        reader.start();
    }

    /** Whether h2load has ended and its log has been read to the end. */
    @Override
    public boolean isDone() {
        checkOwner();
        return !process.isAlive() && !reader.isAlive();
    }

    /**
     * Waits for h2load to end (its -D duration), killing it at the deadline, reads the rest of its log and returns
     * the phase: every logged request counted, the 2xx latencies from h2load's own send time.
     */
    @Override
    public PhaseResult await(long deadlineNanos) throws InterruptedException {
        checkOwner();
        long wait = deadlineNanos - System.nanoTime();
        if (wait > 0) {
            process.waitFor(wait, TimeUnit.NANOSECONDS);
        }
        ChildProcesses.stop(process, hook, Duration.ofSeconds(2));
        stopReading = true;
        reader.join(TimeUnit.SECONDS.toMillis(10));
        return recorder.finish(spec.protocol().label(), spec.pathLabel(), spec.ratePerSecond());
    }

    @Override
    public PhaseRecorder recorder() {
        return recorder;
    }

    @Override
    public Histogram histogram() {
        checkOwner();
        return recorder.histogram();
    }

    /** h2load's own CPU from its start to the last sample before it ended, in % of all cores; NaN before any sample. */
    public double cpuPercent() {
        checkOwner();
        long wall = cpuWallNanos - startNanos;
        return wall <= 0 ? Double.NaN : LatencySummary.round(100.0 * cpuNanos / ((double) wall * CpuClock.cores()));
    }

    /** h2load's exit code once awaited (-1 while it runs). */
    public int exitCode() {
        checkOwner();
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** The reader thread: records every complete line of the log as h2load appends it, until h2load has ended. */
    private void follow() {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        StringBuilder partial = new StringBuilder();
        long position = 0;
        long nextCpuSample = System.nanoTime();
        FileChannel channel = null;
        try {
            while (true) {
                boolean ended = !process.isAlive();
                if (channel == null && Files.isRegularFile(logFile)) {
                    channel = FileChannel.open(logFile, StandardOpenOption.READ);
                }
                if (channel != null) {
                    position = readFrom(channel, position, buffer, partial);
                }
                if (System.nanoTime() >= nextCpuSample && !ended) {
                    sampleCpu();
                    nextCpuSample = System.nanoTime() + CPU_SAMPLE.toNanos();
                }
                if (ended || stopReading) {
                    return;
                }
                Thread.sleep(100);
            }
        } catch (IOException e) {
            // The log could not be read: the phase counts what was recorded until then.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // Read only.
                }
            }
        }
    }

    private long readFrom(FileChannel channel, long position, ByteBuffer buffer, StringBuilder partial) throws IOException {
        long at = position;
        int read;
        while ((read = channel.read(buffer.clear(), at)) > 0) {
            at += read;
            partial.append(StandardCharsets.US_ASCII.decode(buffer.flip()));
            int end;
            while ((end = partial.indexOf("\n")) >= 0) {
                record(partial.substring(0, end));
                partial.delete(0, end + 1);
            }
        }
        return at;
    }

    private void record(String line) {
        H2load.LogLine.parse(line).ifPresent(request -> {
            recorder.sent();
            recorder.record(request.outcome(), 0, TimeUnit.MICROSECONDS.toNanos(request.micros()));
        });
    }

    private void sampleCpu() {
        process.toHandle().info().totalCpuDuration().ifPresent(cpu -> {
            cpuNanos = cpu.toNanos();
            cpuWallNanos = System.nanoTime();
        });
    }

    private void checkOwner() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("an H2loadLoad is driven by the thread that made it (" + owner.getName()
                    + "), not " + Thread.currentThread().getName());
        }
    }
}
