package com.example.threading.longpoll;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * How a stopping instance spreads its answers so that its clients do not all come back at once onto the instances
 * that remain: the {@code k}-th of {@code n} parked polls is answered {@code k * spread / n} after the stop began (in
 * {@value #SLICE_MS} ms slices), and its {@code Retry-After} rises from 0 to the spread's whole seconds in the same
 * order, so the reconnects arrive evenly over about twice the spread instead of in one burst. Requests turned away
 * after the stop began (a late poll, a woken {@code /events/blocking} waiter) take the next {@code Retry-After} in turn.
 *
 * <p>Evenly spaced rather than random: the evenness a random jitter gives on average, exactly, and the same in every run.
 *
 * <p>Thread-safety: immutable but for the turn of later requests, an atomic counter; any thread may call any method.
 */
final class ShutdownSpread {

    /** Answers due within one slice are written together: the stopping thread sleeps between slices, not between polls. */
    static final long SLICE_MS = 100;

    private final long spreadMs;
    private final List<Map<String, String>> headersByRetryAfter;
    private final AtomicInteger turn = new AtomicInteger();

    /** Answers spread over {@code spreadMs} (0: all at once, each with {@code Retry-After: 0}). */
    ShutdownSpread(long spreadMs) {
        if (spreadMs < 0) {
            throw new IllegalArgumentException("the spread must not be negative: " + spreadMs + " ms");
        }
        this.spreadMs = spreadMs;
        this.headersByRetryAfter = IntStream.rangeClosed(0, (int) (spreadMs / 1000))
                .mapToObj(seconds -> Map.of("Retry-After", Integer.toString(seconds), "Connection", "close"))
                .toList();
    }

    /** Milliseconds after the stop began at which the {@code k}-th of {@code n} answers is due, rounded down to a slice. */
    long dueMs(int k, int n) {
        return spreadMs * k / n / SLICE_MS * SLICE_MS;
    }

    /** {@code Retry-After} (and {@code Connection: close}) of the {@code k}-th of {@code n} answers. */
    Map<String, String> headers(int k, int n) {
        return headersByRetryAfter.get((int) ((long) k * headersByRetryAfter.size() / n));
    }

    /** The headers of the next request turned away after the stop began: {@code Retry-After} 0, 1, ... in turn. */
    Map<String, String> nextHeaders() {
        return headersByRetryAfter.get(Math.floorMod(turn.getAndIncrement(), headersByRetryAfter.size()));
    }
}
