package com.example.threading.load.scenario.soak;

import java.util.List;

/**
 * Flat or growing: the least-squares slope of a per-minute series, projected over the run, against what counts as
 * noise. The first minute (start-up, JIT, pools filling) is left out; a series is "growing" when its projected
 * growth exceeds both {@code slack} (in the series' unit) and 10 % of its mean, "flat" otherwise, "–" with fewer
 * than three minutes to fit.
 */
record Growth(double first, double last, double slopePerMinute, double projected, String verdict) {

    /** The verdict on {@code values} (one per minute, NaN = not measured that minute). */
    static Growth of(List<Double> values, double slack) {
        double sumX = 0;
        double sumY = 0;
        double sumXy = 0;
        double sumXx = 0;
        int n = 0;
        double first = Double.NaN;
        double last = Double.NaN;
        for (int minute = 1; minute < values.size(); minute++) {
            double y = values.get(minute);
            if (!Double.isFinite(y)) {
                continue;
            }
            if (Double.isNaN(first)) {
                first = y;
            }
            last = y;
            sumX += minute;
            sumY += y;
            sumXy += minute * y;
            sumXx += (double) minute * minute;
            n++;
        }
        if (n < 3) {
            return new Growth(first, last, Double.NaN, Double.NaN, "–");
        }
        double slope = (n * sumXy - sumX * sumY) / (n * sumXx - sumX * sumX);
        double projected = slope * (values.size() - 2);
        double mean = sumY / n;
        boolean growing = projected > slack && projected > 0.10 * Math.abs(mean);
        return new Growth(first, last, slope, projected, growing ? "growing" : "flat");
    }
}
