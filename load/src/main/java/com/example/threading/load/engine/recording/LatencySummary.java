package com.example.threading.load.engine.recording;

import org.HdrHistogram.Histogram;

/** Latency percentiles in milliseconds, read from an HdrHistogram recorded in microseconds. *
 */
public record LatencySummary(long count, double min, double mean, double p50, double p90, double p99, double p999, double max) {

    /** The summary of a histogram of microseconds; all zero when it is empty. */
    public static LatencySummary of(Histogram micros) {
        if (micros.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0, 0, 0, 0);
        }
        return new LatencySummary(micros.getTotalCount(), ms(micros.getMinValue()), round(micros.getMean() / 1000.0),
                ms(micros.getValueAtPercentile(50)), ms(micros.getValueAtPercentile(90)),
                ms(micros.getValueAtPercentile(99)), ms(micros.getValueAtPercentile(99.9)), ms(micros.getMaxValue()));
    }

    private static double ms(long micros) {
        return round(micros / 1000.0);
    }

    /** Rounded to three decimals (a microsecond, for milliseconds); NaN (not measured) stays NaN. */
    public static double round(double value) {
        return Double.isFinite(value) ? Math.round(value * 1000.0) / 1000.0 : value;
    }
}
