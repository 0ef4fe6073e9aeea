package com.example.threading.load.scenario.probe;

import org.HdrHistogram.Histogram;

/**
 * The loaders of one recording taken together: what sent them ({@code engine} ran, in words {@code description}; h2load
 * where it was asked for and installed), the total rate they
 * offered, the CPU they used (% of all cores: the h2load processes', or the tool's when the Java loaders ran in it),
 * and their 2xx latencies added up (µs).
 *
 * <p>Nobody may write to its histogram once it is made.
 */
record LoaderRun(LoaderEngine engine, String description, int rate, double cpuPercent, Histogram latency) {

    /** Whether the loaders ran in the tool's own JVM (their CPU is then the tool's). */
    boolean inTool() {
        return engine == LoaderEngine.JAVA;
    }
}
