package com.example.threading.load.scenario.soak;

import com.example.threading.load.engine.recording.HistogramLogs;
import com.example.threading.load.engine.recording.LatencySummary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A phase's 2xx latency once the service has settled: the one-second interval histograms of its .hlog from
 * {@code fromSeconds} on, added up ({@code engine.HistogramLogs}). A soak's whole-run percentiles are its
 * warm-up's (JIT, pools filling, and a backlog in the client's connection-capped queue that takes up to a minute to
 * drain); these are what a running service does.
 *
 * <p>A function of a finished file: call it after the phase has ended.
 */
final class SettledLatency {

    private SettledLatency() {
    }

    /** The latency recorded in {@code histogramLog} from {@code fromSeconds} after its start; empty when nothing was. */
    static Optional<LatencySummary> of(Path histogramLog, double fromSeconds) throws IOException {
        return HistogramLogs.sum(histogramLog, fromSeconds).map(LatencySummary::of);
    }
}
