package com.example.threading.load.scenario.wave;

import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What the waves of one pattern did: one load phase per wave (fewer than asked if the deadline cut them), and
 * the latency of every 2xx of them all in microseconds.
 *
 * <p>The histogram is the scenario's own merged copy: nobody may write to it once the record is made.
 */
record PatternWaves(String pattern, List<PhaseResult> waves, Histogram latencies) {

    PatternWaves {
        waves = List.copyOf(waves);
    }

    /** Requests sent over all waves. */
    long sent() {
        return waves.stream().mapToLong(PhaseResult::sent).sum();
    }

    /** Requests of all waves that ended in this outcome. */
    long count(Outcome outcome) {
        return waves.stream().mapToLong(wave -> wave.count(outcome)).sum();
    }

    /** Every outcome summed over the waves, keyed by outcome name. */
    Map<String, Long> outcomes() {
        Map<String, Long> outcomes = new LinkedHashMap<>();
        waves.forEach(wave -> wave.outcomes().forEach((key, value) -> outcomes.merge(key, value, Long::sum)));
        return outcomes;
    }

    /**
     * Each wave's time in ms: every request was meant to leave at the wave's start, so the slowest answer is
     * the wave time; NaN for a wave in which not every request got a 2xx.
     */
    List<Double> waveTimesMs() {
        return waves.stream().map(wave -> wave.count(Outcome.OK) == wave.sent() ? wave.latencyMs().max() : Double.NaN).toList();
    }

    /** Percentiles of every 2xx of every wave. */
    LatencySummary latency() {
        return LatencySummary.of(latencies);
    }

    /** Whether every request was answered 501 (the pattern does not exist on the server's JDK). */
    boolean unavailable() {
        return sent() > 0 && count(Outcome.UNAVAILABLE_501) == sent();
    }
}
