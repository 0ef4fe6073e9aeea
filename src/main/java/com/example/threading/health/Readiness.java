package com.example.threading.health;

import com.codahale.metrics.health.HealthCheckRegistry;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The named health checks' verdict, run at most once per {@code maxAge}: a readiness probe answered from a fresh
 * verdict costs nothing, however often it comes. This matters because a check can be costly: Dropwizard's
 * {@code deadlocks} check asks the JVM for deadlocked threads, a VM operation that stops every thread at a safepoint.
 *
 * <p>Thread-safety: any thread may call {@link #current}; the verdict is guarded by this object's monitor, so one
 * caller runs the checks while others wait for its verdict (no check ever runs twice at once), and every caller sees
 * the verdict of a run that ended after the previous one. {@code ReadinessTest} checks it with a check held on a latch:
 * a second caller waits for the first one's verdict, and the check never runs twice at once.
 */
final class Readiness {

    /** Checks run (registered ones, in the order named) and those of them that failed. */
    record Verdict(List<String> ran, List<String> failing) {

        /** Whether every check run passed. */
        boolean ready() {
            return failing.isEmpty();
        }
    }

    private final HealthCheckRegistry registry;
    private final List<String> checks;
    private final long maxAgeNanos;
    private final LongSupplier nanoClock;
    @GuardedBy("this")
    private Verdict last;
    @GuardedBy("this")
    private long lastRunNanos;

    /** The checks named {@code checks} of {@code registry}, run again once a verdict is {@code maxAgeNanos} old. */
    Readiness(HealthCheckRegistry registry, List<String> checks, long maxAgeNanos, LongSupplier nanoClock) {
        this.registry = registry;
        this.checks = List.copyOf(checks);
        this.maxAgeNanos = maxAgeNanos;
        this.nanoClock = nanoClock;
    }

    /** The last verdict if younger than the max age, else a new one. */
    synchronized Verdict current() {
        long now = nanoClock.getAsLong();
        if (last == null || now - lastRunNanos >= maxAgeNanos) {
            last = run();
            lastRunNanos = now;
        }
        return last;
    }

    private Verdict run() {
        Set<String> registered = registry.getNames();
        List<String> ran = new ArrayList<>();
        List<String> failing = new ArrayList<>();
        for (String name : checks) {
            if (registered.contains(name)) {
                ran.add(name);
                if (!registry.runHealthCheck(name).isHealthy()) {
                    failing.add(name);
                }
            }
        }
        return new Verdict(List.copyOf(ran), List.copyOf(failing));
    }
}
