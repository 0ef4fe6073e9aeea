package com.example.threading.load.engine;

import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Made-up {@link PhaseResult}s for tests of the views: what a recorder would have produced, without a run. */
public final class Phases {

    private Phases() {
    }

    /** A phase in which every request was answered 2xx, with this latency (ms). */
    public static PhaseResult allOk(String name, long sent, LatencySummary latency) {
        return phase(name, 0, 1.0, Map.of(Outcome.OK, sent), latency);
    }

    /** A phase of {@code durationSeconds} at {@code targetRate} whose requests ended as {@code counts}; sent is their sum. */
    public static PhaseResult phase(String name, int targetRate, double durationSeconds, Map<Outcome, Long> counts, LatencySummary latency) {
        Map<Outcome, Long> all = new EnumMap<>(Outcome.class);
        for (Outcome outcome : Outcome.values()) {
            all.put(outcome, counts.getOrDefault(outcome, 0L));
        }
        Map<String, Long> outcomes = new LinkedHashMap<>();
        all.forEach((outcome, count) -> outcomes.put(outcome.name(), count));
        long sent = all.values().stream().mapToLong(Long::longValue).sum();
        long ok = all.get(Outcome.OK);
        return new PhaseResult(name, "HTTP/1.1", "/work/x", targetRate, durationSeconds, sent, outcomes,
                LatencySummary.round(ok / durationSeconds), latency, 12.5, Double.NaN, name + ".hlog", List.of());
    }

    /** A latency summary with these percentiles (ms); count as given. */
    public static LatencySummary latency(long count, double min, double p50, double p99, double max) {
        return new LatencySummary(count, min, (min + max) / 2, p50, p50, p99, p99, max);
    }
}
