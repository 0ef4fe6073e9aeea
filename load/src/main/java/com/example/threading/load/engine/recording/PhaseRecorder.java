package com.example.threading.load.engine.recording;

import com.example.threading.load.service.CpuClock;
import com.example.threading.load.service.ServerCpu;
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
import org.HdrHistogram.WriterReaderPhaser;

/**
 * Records one phase: the outcome of every request, the latency of the 2xx answers into an HdrHistogram
 * {@link Recorder} (microseconds), the latency of the 503 answers into another (a fast refusal and a slow one are
 * different degradations), and once a second an interval (histogram written to a raw .hlog file,
 * counts, server and tool CPU). Every request {@link #sent()} before {@link #finish} ends in exactly one
 * outcome: the one {@link #record}ed for it, or {@link Outcome#UNANSWERED} if it was still open then.
 *
 * <p>Thread-safety, by role:
 * <ul>
 *   <li>Clients (any threads, any number): {@link #sent()} and {@link #record}. A record runs inside a
 *   {@link WriterReaderPhaser} writer critical section (two atomic increments, no lock), so it never
 *   waits for the ticker or the owner.</li>
 *   <li>The ticker (the recorder's own daemon thread): closes an interval once a second, under the
 *   recorder's lock (checked).</li>
 *   <li>The owner (one thread at a time): {@link #finish}, under the lock. It first stops answers from
 *   counting, then flips the phaser, which waits until every record that began before has ended; so the
 *   counts it reads are final, and answers arriving later are ignored. Later calls return the same result.</li>
 *   <li>Readers (any thread): the counts for progress (each up to date, not consistent with one another),
 *   and {@link #histogram()} under the lock.</li>
 * </ul>
 */
public final class PhaseRecorder {

    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(30);

    private final String name;
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final Histogram total = new Histogram(HIGHEST_MICROS, 3);
    private final Recorder rejectedRecorder = new Recorder(HIGHEST_MICROS, 3);
    private Histogram rejectedTotal = new Histogram(HIGHEST_MICROS, 3);
    private final OutcomeCounts outcomes = new OutcomeCounts();
    private final OutcomeCounts intervalOutcomes = new OutcomeCounts();
    private final WriterReaderPhaser answering = new WriterReaderPhaser();
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

    /** The phase's name. */
    public String name() {
        return name;
    }

    /** Counts a request handed to the client; each must be {@link #record}ed once, or it ends unanswered. */
    public void sent() {
        sent.incrementAndGet();
    }

    /** Records how a sent request ended; latency from {@code fromNanos} (intended send) to {@code toNanos}. Ignored after finish. */
    public void record(Outcome outcome, long fromNanos, long toNanos) {
        long token = answering.writerCriticalSectionEnter();
        try {
            if (finished) {
                return;
            }
            answered.incrementAndGet();
            outcomes.add(outcome, 1);
            intervalOutcomes.add(outcome, 1);
            long micros = Math.min(HIGHEST_MICROS, Math.max(0, TimeUnit.NANOSECONDS.toMicros(toNanos - fromNanos)));
            if (outcome == Outcome.OK) {
                recorder.recordValue(micros);
            } else if (outcome == Outcome.REJECTED_503) {
                rejectedRecorder.recordValue(micros);
            }
        } finally {
            answering.writerCriticalSectionExit(token);
        }
    }

    /** The ticker's task: closes the current interval, once a second until finished. */
    private synchronized void tick() {
        if (result == null) {
            closeInterval();
        }
    }

    /** Writes the interval's histogram, counts and CPU. Must hold the recorder's lock (the ticker and finish take turns). */
    private void closeInterval() {
        if (!Thread.holdsLock(this)) {
            throw new IllegalStateException("closeInterval() must be called holding the recorder's lock");
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

    /**
     * Ends the phase: later answers are ignored, requests sent and not answered by now count unanswered; closes
     * the last interval and the log, and returns the result (the same one on every later call).
     */
    public synchronized PhaseResult finish(String protocol, String path, int targetRate) {
        if (result != null) {
            return result;
        }
        finished = true;
        ticker.shutdownNow();
        // Wait for the records that began before `finished` was set; none in flight after this, none will count.
        answering.readerLock();
        try {
            answering.flipPhase();
        } finally {
            answering.readerUnlock();
        }
        long sentBeforeEnd = sent.get();
        outcomes.add(Outcome.UNANSWERED, Math.max(0, sentBeforeEnd - answered.get()));
        closeInterval();
        rejectedTotal = rejectedRecorder.getIntervalHistogram();
        logStream.close();
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        result = new PhaseResult(name, protocol, path, targetRate, LatencySummary.round(seconds), sentBeforeEnd,
                outcomes.snapshot(), LatencySummary.round(outcomes.get(Outcome.OK) / seconds), LatencySummary.of(total),
                LatencySummary.round(serverCpuTotal.percentSinceLast()), LatencySummary.round(toolCpuTotal.percentSinceLast()),
                histogramLog.getFileName().toString(), List.copyOf(intervals));
        return result;
    }

    /** All 2xx latencies of the phase (microseconds); complete after {@link #finish}. */
    public synchronized Histogram histogram() {
        return total.copy();
    }

    /** All 503 latencies of the phase (microseconds, from the intended send); complete after {@link #finish}, empty before. */
    public synchronized Histogram rejectedHistogram() {
        return rejectedTotal.copy();
    }

    /** Requests sent so far (for progress). */
    public long sentCount() {
        return sent.get();
    }

    /** Requests answered (in any way) so far (for progress). */
    public long answeredCount() {
        return answered.get();
    }

    /** 2xx answers so far (for progress). */
    public long okCount() {
        return outcomes.get(Outcome.OK);
    }

    private static double ms(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : LatencySummary.round(h.getValueAtPercentile(percentile) / 1000.0);
    }
}
