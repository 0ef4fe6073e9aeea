package com.example.threading.load.engine.recording;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A counter per {@link Outcome}.
 *
 * <p>Thread-safety: any thread may {@link #add} at any time (a {@link LongAdder} per outcome). {@link #drain}
 * loses no count added concurrently (each counter is swapped to zero atomically: a concurrent add lands in
 * this drain or the next). Readers ({@link #get}, {@link #snapshot}, {@link #total}) see each counter up to
 * date but not the counters consistent with one another while writers are still adding; once they have
 * stopped (a happens-before edge, e.g. the recorder's phaser), the numbers are exact.
 */
final class OutcomeCounts {

    private final EnumMap<Outcome, LongAdder> counts = new EnumMap<>(Outcome.class);

    OutcomeCounts() {
        for (Outcome outcome : Outcome.values()) {
            counts.put(outcome, new LongAdder());
        }
    }

    /** Counts n requests with this outcome. */
    void add(Outcome outcome, long n) {
        counts.get(outcome).add(n);
    }

    /** The count of one outcome. */
    long get(Outcome outcome) {
        return counts.get(outcome).sum();
    }

    /** Returns the counts and resets them to zero (for per-interval counts). */
    Map<Outcome, Long> drain() {
        Map<Outcome, Long> snapshot = new EnumMap<>(Outcome.class);
        counts.forEach((outcome, adder) -> snapshot.put(outcome, adder.sumThenReset()));
        return snapshot;
    }

    /** A copy of the counts, keyed by outcome label; every outcome present. */
    Map<String, Long> snapshot() {
        Map<String, Long> snapshot = new java.util.LinkedHashMap<>();
        counts.forEach((outcome, adder) -> snapshot.put(outcome.name(), adder.sum()));
        return snapshot;
    }

    /** Sum over all outcomes. */
    long total() {
        return counts.values().stream().mapToLong(LongAdder::sum).sum();
    }
}
