package com.example.threading.load.engine.jvm;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One reading of a JVM, {@code atSeconds} after the run began: heap used (MB), live threads, open file
 * descriptors (NaN when not readable), and any further gauges asked for (by their metric name).
 */
public record JvmSample(double atSeconds, double heapUsedMb, double threads, double openFiles, Map<String, Double> gauges) {

    /** Copies the gauges, keeping their order. */
    public JvmSample {
        gauges = Collections.unmodifiableMap(new LinkedHashMap<>(gauges));
    }
}
