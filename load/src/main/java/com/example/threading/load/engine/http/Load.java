package com.example.threading.load.engine.http;

import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One phase of fixed-rate load from one client, whatever sends it: Jetty's load generator in this JVM
 * ({@link GeneratedLoad}) or an h2load process ({@link H2loadLoad}). Each records into a {@link PhaseRecorder}, so
 * its result, intervals and .hlog look the same in a report.
 *
 * <p>Thread-safety: an implementation is driven by one owner thread ({@link #begin}, {@link #isDone},
 * {@link #await}, {@link #histogram}); {@link #recorder()}'s counts may be read from anywhere.
 */
public interface Load {

    /** Starts sending. */
    void begin();

    /** Whether every request has been sent and answered (or the sender has ended). */
    boolean isDone();

    /** Waits until the phase is over or the deadline (System.nanoTime) passes, stops it, and returns its result. */
    PhaseResult await(long deadlineNanos) throws InterruptedException;

    /** The recorder (for live progress). */
    PhaseRecorder recorder();

    /** The histogram of the 2xx latencies in µs (complete once awaited). */
    Histogram histogram();

    /** Runs phases side by side until all are done or the deadline passes, showing progress; their results in order. */
    static List<PhaseResult> runTogether(List<? extends Load> loads, long deadlineNanos, Progress progress) throws InterruptedException {
        loads.forEach(Load::begin);
        while (System.nanoTime() < deadlineNanos && !loads.stream().allMatch(Load::isDone)) {
            progress.update(loads.stream().mapToLong(load -> load.recorder().answeredCount()).sum(),
                    loads.stream().mapToLong(load -> load.recorder().okCount()).sum());
            Thread.sleep(200);
        }
        List<PhaseResult> results = new ArrayList<>();
        for (Load load : loads) {
            results.add(load.await(deadlineNanos));
        }
        return results;
    }
}
