package com.example.threading.load.scenario.soak;

import com.example.threading.load.engine.LatencySummary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * A phase's 2xx latency once the service has settled: the one-second interval histograms of its .hlog from
 * {@code fromSeconds} on, added up with HdrHistogram's own log reader. A soak's whole-run percentiles are its
 * warm-up's (JIT, pools filling, and a backlog in the client's connection-capped queue that takes up to a minute to
 * drain); these are what a running service does.
 *
 * <p>Thread-safety: a function of a finished file; call it after the phase has ended.
 */
final class SettledLatency {

    private SettledLatency() {
    }

    /** The latency recorded in {@code histogramLog} from {@code fromSeconds} after its start; empty when nothing was. */
    static Optional<LatencySummary> of(Path histogramLog, double fromSeconds) throws IOException {
        Histogram settled = null;
        try (HistogramLogReader reader = new HistogramLogReader(histogramLog.toFile())) {
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram(fromSeconds, Double.MAX_VALUE)) != null) {
                Histogram second = (Histogram) interval;
                if (settled == null) {
                    settled = new Histogram(second.getHighestTrackableValue(), second.getNumberOfSignificantValueDigits());
                }
                settled.add(second);
            }
        }
        return settled == null || settled.getTotalCount() == 0 ? Optional.empty() : Optional.of(LatencySummary.of(settled));
    }
}
