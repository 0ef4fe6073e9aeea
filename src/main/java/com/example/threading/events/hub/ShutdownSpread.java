package com.example.threading.events.hub;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How a stopping instance spreads its answers so that its clients do not all come back at once onto the instances
 * that remain: the {@code k}-th of {@code n} parked polls is answered {@code k * spread / n} after the stop began (in
 * {@value #SLICE_MS} ms slices), and its {@code Retry-After} rises from 0 to the spread's whole seconds in the same
 * order, so the reconnects arrive evenly over about twice the spread instead of in one burst. Requests turned away
 * after the stop began (a late poll, a woken {@code /events/blocking} waiter) take the next {@code Retry-After} in turn.
 *
 * <p>Evenly spaced rather than random: the evenness a random jitter gives on average, exactly, and the same in every run.
 *
 * <p>Immutable but for the turn of later requests, an atomic counter; any thread may call any method.
 */
public final class ShutdownSpread {

    /** Answers due within one slice are written together: the stopping thread sleeps between slices, not between polls. */
    static final long SLICE_MS = 100;

    private final long spreadMs;
    private final int retryAfterValues;
    private final AtomicInteger turn = new AtomicInteger();

    /** Answers spread over {@code spreadMs} (0: all at once, each with {@code Retry-After: 0}). */
    public ShutdownSpread(long spreadMs) {
        if (spreadMs < 0) {
            throw new IllegalArgumentException("the spread must not be negative: " + spreadMs + " ms");
        }
        this.spreadMs = spreadMs;
        this.retryAfterValues = (int) (spreadMs / 1000) + 1;
    }

    /** Milliseconds after the stop began at which the {@code k}-th of {@code n} answers is due, rounded down to a slice. */
    public long dueMs(int k, int n) {
        return spreadMs * k / n / SLICE_MS * SLICE_MS;
    }

    /** {@code Retry-After}, in seconds, of the {@code k}-th of {@code n} answers. */
    public int retryAfter(int k, int n) {
        return (int) ((long) k * retryAfterValues / n);
    }

    /** {@code Retry-After}, in seconds, of the next request turned away after the stop began: 0, 1, ... in turn. */
    public int nextRetryAfter() {
        return Math.floorMod(turn.getAndIncrement(), retryAfterValues);
    }
}
