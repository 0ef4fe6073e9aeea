package com.example.threading.load.engine.recording;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Reads back an HdrHistogram interval log (.hlog, as {@link PhaseRecorder} writes one per phase) with HdrHistogram's
 * own log reader: the interval histograms from some second on, added up.
 *
 * <p>Call it once the log's writer has closed it.
 */
public final class HistogramLogs {

    private HistogramLogs() {
    }

    /**
     * The intervals of {@code log} that start {@code fromSeconds} or later after its start, added up; empty when none
     * has a value. From 0 (or less) every interval counts: a recorder's first interval may begin a millisecond
     * before the log's start time, and a range from 0 would leave it out.
     */
    public static Optional<Histogram> sum(Path log, double fromSeconds) throws IOException {
        Histogram sum = null;
        try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
            EncodableHistogram interval;
            while ((interval = fromSeconds <= 0 ? reader.nextIntervalHistogram() : reader.nextIntervalHistogram(fromSeconds, Double.MAX_VALUE))
                    != null) {
                Histogram second = (Histogram) interval;
                if (sum == null) {
                    sum = new Histogram(second.getHighestTrackableValue(), second.getNumberOfSignificantValueDigits());
                }
                sum.add(second);
            }
        }
        return sum == null || sum.getTotalCount() == 0 ? Optional.empty() : Optional.of(sum);
    }
}
