package com.example.threading.load.engine;

import com.example.threading.load.target.CpuClock;
import com.example.threading.load.target.ServerCpu;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.Recorder;

/**
 * Records one phase: the outcome of every request, the latency of the 2xx answers into an HdrHistogram
 * {@link Recorder} (microseconds), and once a second an interval (histogram written to a raw .hlog file,
 * counts, server and tool CPU). Thread-safe: {@link #sent()} and {@link #record} from any client thread;
 * the once-a-second tick runs on the recorder's own thread, {@link #finish} on the owner's. After {@code finish} later answers are
 * ignored: what was still open at that moment is counted {@link Outcome#UNANSWERED}.
 */
public final class PhaseRecorder {

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(30);

    private final String name;
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final Histogram total = new Histogram(HIGHEST_MICROS, 3);
    private final OutcomeCounts outcomes = new OutcomeCounts();
    private final OutcomeCounts intervalOutcomes = new OutcomeCounts();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final CpuClock serverCpu;
    private final CpuClock toolCpu;
    private final CpuClock serverCpuTotal;
    private final CpuClock toolCpuTotal;
    private final List<IntervalSample> intervals = new ArrayList<>();
    private final Path histogramLog;
    private final PrintStream logStream;
    private final HistogramLogWriter logWriter;
    private final long startNanos = System.nanoTime();
    private long lastTickNanos = startNanos;
    private Histogram intervalHistogram;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "phase-ticker");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean finished;
    private PhaseResult result;

    /** Starts recording now; the raw interval histograms go to {@code histogramLog}. */
    public PhaseRecorder(String name, Path histogramLog, ServerCpu server) {
        this.name = name;
        this.histogramLog = histogramLog;
        this.serverCpu = server.clock();
        this.serverCpuTotal = server.clock();
        this.toolCpu = new CpuClock(java.util.Optional.of(ProcessHandle.current()));
        this.toolCpuTotal = new CpuClock(java.util.Optional.of(ProcessHandle.current()));
        try {
            Files.createDirectories(histogramLog.getParent());
            this.logStream = new PrintStream(Files.newOutputStream(histogramLog), false, "UTF-8");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.logWriter = new HistogramLogWriter(logStream);
        logWriter.outputComment("phase " + name + ": latency of 2xx answers in microseconds, from the intended send time");
        logWriter.outputLogFormatVersion();
        long nowMs = System.currentTimeMillis();
        logWriter.setBaseTime(nowMs);
        logWriter.outputStartTime(nowMs);
        logWriter.outputLegend();
        ticker.scheduleAtFixedRate(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    /** Counts a request handed to the client; every one must later be {@link #record}ed or end unanswered. */
    public void sent() {
        sent.incrementAndGet();
    }

    /** Records how a sent request ended; latency from {@code fromNanos} (intended send) to {@code toNanos}. */
    public void record(Outcome outcome, long fromNanos, long toNanos) {
        if (finished) {
            return;
        }
        answered.incrementAndGet();
        outcomes.add(outcome, 1);
        intervalOutcomes.add(outcome, 1);
        if (outcome == Outcome.OK) {
            recorder.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, TimeUnit.NANOSECONDS.toMicros(toNanos - fromNanos))));
        }
    }

    /** Closes the current interval: writes its histogram, counts and CPU. Runs once a second until finished. */
    private synchronized void tick() {
        if (result != null) {
            return;
        }
        long now = System.nanoTime();
        intervalHistogram = recorder.getIntervalHistogram(intervalHistogram);
        total.add(intervalHistogram);
        logWriter.outputIntervalHistogram(intervalHistogram);
        Map<Outcome, Long> counts = intervalOutcomes.drain();
        long ok = counts.get(Outcome.OK);
        long rejected = counts.get(Outcome.REJECTED_503);
        long others = counts.values().stream().mapToLong(Long::longValue).sum() - ok - rejected
                - counts.get(Outcome.UNAVAILABLE_501);
        Histogram h = intervalHistogram;
        intervals.add(new IntervalSample(LatencySummary.round((now - startNanos) / 1e9), LatencySummary.round((now - lastTickNanos) / 1e9),
                ok, rejected, others,
                ms(h, 50), ms(h, 99), h.getTotalCount() == 0 ? 0 : LatencySummary.round(h.getMaxValue() / 1000.0),
                LatencySummary.round(serverCpu.percentSinceLast()), LatencySummary.round(toolCpu.percentSinceLast())));
        lastTickNanos = now;
    }

    /** Ends the phase: ignores later answers, counts the unanswered, closes the log and returns the result. */
    public synchronized PhaseResult finish(String protocol, String path, int targetRate) {
        if (result != null) {
            return result;
        }
        finished = true;
        ticker.shutdownNow();
        long unanswered = sent.get() - answered.get();
        outcomes.add(Outcome.UNANSWERED, Math.max(0, unanswered));
        tick();
        logStream.close();
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        result = new PhaseResult(name, protocol, path, targetRate, LatencySummary.round(seconds), sent.get(),
                outcomes.snapshot(), LatencySummary.round(outcomes.get(Outcome.OK) / seconds), LatencySummary.of(total),
                LatencySummary.round(serverCpuTotal.percentSinceLast()), LatencySummary.round(toolCpuTotal.percentSinceLast()),
                histogramLog.getFileName().toString(), List.copyOf(intervals));
        return result;
    }

    /** All 2xx latencies of the phase (microseconds); complete after {@link #finish}. */
    public synchronized Histogram histogram() {
        return total.copy();
    }

    /** Requests sent so far. */
    public long sentCount() {
        return sent.get();
    }

    /** Requests answered (in any way) so far. */
    public long answeredCount() {
        return answered.get();
    }

    /** 2xx answers so far. */
    public long okCount() {
        return outcomes.get(Outcome.OK);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : LatencySummary.round(h.getValueAtPercentile(percentile) / 1000.0);
    }
}
