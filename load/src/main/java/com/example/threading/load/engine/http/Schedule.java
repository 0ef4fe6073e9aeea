package com.example.threading.load.engine.http;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When each request was meant to be sent. Jetty's load generator paces its sends open-loop but stamps a
 * request when it really goes out; a sender that fell behind (GC, a busy core) would hide the delay.
 * Latency measured from the intended time corrects for that coordinated omission.
 *
 * <p>Thread-safety: both schedules may be asked from any thread (the generator's sender asks in order);
 * their one piece of state, the start, is an atomic that only moves one way.
 */
public interface Schedule {

    /** The intended send time (System.nanoTime) of the n-th request (from 1), queued by the client at {@code queuedNanos}. */
    long intendedNanos(long sequence, long queuedNanos);

    /**
     * One request every 1/rate s (one sender thread, as the generator is configured): the n-th was meant for
     * start + (n-1)/rate, however late the sender really was. The generator never sends early, so the start
     * is at most min(queued(n) - (n-1)/rate) over the requests seen so far: the anchor only moves back, and
     * a request's intended time is never after it was really queued.
     */
    static Schedule fixedRate(int ratePerSecond) {
        if (ratePerSecond <= 0) {
            throw new IllegalArgumentException("a fixed rate must be at least 1 request/s, not " + ratePerSecond);
        }
        long period = TimeUnit.SECONDS.toNanos(1) / ratePerSecond;
        AtomicLong anchor = new AtomicLong(Long.MAX_VALUE);
        return (sequence, queuedNanos) -> {
            long offset = (sequence - 1) * period;
            return anchor.accumulateAndGet(queuedNanos - offset, Math::min) + offset;
        };
    }

    /** A wave: every request was meant to go out when the first did. */
    static Schedule allAtOnce() {
        AtomicLong anchor = new AtomicLong(Long.MIN_VALUE);
        return (sequence, queuedNanos) -> {
            anchor.compareAndSet(Long.MIN_VALUE, queuedNanos);
            return anchor.get();
        };
    }
}
