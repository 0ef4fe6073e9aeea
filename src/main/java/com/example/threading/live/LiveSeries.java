package com.example.threading.live;

import java.util.Objects;

/**
 * One line of a chart: its legend, the Dropwizard metric it reads (a name as on {@code /metrics}), whether it is drawn
 * as read or as a rate per second, and the page under docs/ that documents the metric.
 *
 * @param label  the legend, for a reader who has not seen the code (e.g. {@code "work-cached pool"})
 * @param metric the metric's name in the registry (e.g. {@code "work.cached.executor.pool.size"})
 * @param kind   {@link Kind#VALUE} for a gauge or a counter that goes up and down, {@link Kind#PER_SECOND} for a count
 *               that only grows (meters, timers, cumulative gauges), drawn as its increase per second
 * @param page   the page under docs/ that documents the metric, e.g. {@code "work.md"}
 */
public record LiveSeries(String label, String metric, Kind kind, String page) {

    /** How the page draws a number it reads. */
    public enum Kind {
        /** As read: threads, requests in flight, queued. */
        VALUE,
        /** A cumulative count drawn as its increase per second between two reads. */
        PER_SECOND
    }

    /** Checks that every part is given. */
    public LiveSeries {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(page, "page");
    }

    /** A line drawn as read. */
    static LiveSeries value(String label, String metric, String page) {
        return new LiveSeries(label, metric, Kind.VALUE, page);
    }

    /** A line drawn as an increase per second. */
    static LiveSeries perSecond(String label, String metric, String page) {
        return new LiveSeries(label, metric, Kind.PER_SECOND, page);
    }
}
