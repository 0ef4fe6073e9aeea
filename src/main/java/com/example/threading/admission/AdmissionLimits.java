package com.example.threading.admission;

import java.time.Duration;

/**
 * The limits admission control runs with, resolved from the {@code admission} section and the server's thread
 * bound: explicit values win, empty ones are derived here.
 *
 * @param maxRequests       requests handled at once
 * @param maxQueued         requests waiting for a place; beyond it a request is refused at once
 * @param maxQueueTime      longest wait for a place; then the request is refused
 * @param retryAfterSeconds {@code Retry-After} of every refusal
 */
public record AdmissionLimits(int maxRequests, int maxQueued, Duration maxQueueTime, long retryAfterSeconds) {

    /** Fewest places left to Jetty's own work (acceptors, selectors, reserved threads) by the derived default. */
    static final int MIN_MARGIN = 8;

    /** Checks the values; a record built here is always usable by the handler. */
    public AdmissionLimits {
        if (maxRequests < 1 || maxQueued < 0 || maxQueueTime.isNegative() || maxQueueTime.isZero() || retryAfterSeconds < 0) {
            throw new IllegalArgumentException("admission limits out of range: maxRequests " + maxRequests
                    + " (>= 1), maxQueued " + maxQueued + " (>= 0), maxQueueTime " + maxQueueTime
                    + " (> 0), retryAfter " + retryAfterSeconds + " s (>= 0)");
        }
    }

    /**
     * The limits for {@code configuration} on a server that runs at most {@code threadBound} requests at once
     * ({@code server.maxThreads}, or the virtual-thread bound in virtual-thread mode: see {@link ThreadBound}).
     */
    public static AdmissionLimits resolve(AdmissionConfiguration configuration, int threadBound) {
        int maxRequests = configuration.getMaxRequests() != null
                ? configuration.getMaxRequests() : defaultMaxRequests(threadBound);
        int maxQueued = configuration.getMaxQueued() != null ? configuration.getMaxQueued() : maxRequests;
        return new AdmissionLimits(maxRequests, maxQueued,
                Duration.ofNanos(configuration.getMaxQueueTime().toNanoseconds()),
                configuration.getRetryAfter().toSeconds());
    }

    /**
     * The default {@code maxRequests} for a server that runs at most {@code threadBound} requests at once: the bound
     * minus a margin of 5 % (at least {@value #MIN_MARGIN}) for the threads Jetty needs itself, so that an admitted
     * request gets a thread at once and never waits in Jetty's unbounded job queue; at least 1. E.g. 200 → 190,
     * 16 → 8.
     */
    public static int defaultMaxRequests(int threadBound) {
        if (threadBound < 1) {
            throw new IllegalArgumentException("thread bound must be at least 1, was " + threadBound);
        }
        int margin = Math.max(MIN_MARGIN, threadBound / 20);
        return Math.max(1, threadBound - margin);
    }
}
