package com.example.threading.metrics;

/**
 * What a Dropwizard metric becomes on {@code /prometheus}. {@link #BY_TYPE} lets the Dropwizard type decide: a meter
 * is a counter, a Dropwizard counter (it goes up and down: {@code running}, {@code active-requests}) and a gauge are
 * gauges, a timer or a histogram is a Prometheus histogram recorded as it is updated (a {@link #SUMMARY} if it was not
 * made by the recording registry).
 */
enum ExportKind {
    /** Decided by the Dropwizard type. */
    BY_TYPE,
    /** A cumulative count (the exposed name ends in {@code _total}); for gauges that only grow, such as Jetty's task counts. */
    COUNTER,
    /** A value that goes up and down. */
    GAUGE,
    /** A timer or histogram made without the registry's recording (e.g. {@code register(name, new Timer())}): a summary. */
    SUMMARY,
    /** A text value: one series {@code <name>_info{value="<text>"} 1}. */
    INFO,
    /** Not exported; the rule says why and where the same information is. */
    SKIP
}
