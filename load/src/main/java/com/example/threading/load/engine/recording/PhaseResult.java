package com.example.threading.load.engine.recording;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one load phase did: every request sent ends in exactly one outcome (keys of {@code outcomes} are
 * {@link Outcome} names), so {@code sent} equals their sum. Latency covers the 2xx answers, measured from
 * the intended send time.
 */
public record PhaseResult(String name, String protocol, String path, int targetRatePerSecond, double durationSeconds,
                          long sent, Map<String, Long> outcomes, double okPerSecond, LatencySummary latencyMs,
                          double serverCpuPercent, double toolCpuPercent, String histogramLog,
                          List<IntervalSample> intervals) {

    /** Copies the outcomes (keeping their order) and the intervals. */
    public PhaseResult {
        outcomes = Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
        intervals = List.copyOf(intervals);
    }

    /** The count of one outcome. */
    public long count(Outcome outcome) {
        return outcomes.getOrDefault(outcome.name(), 0L);
    }
}
