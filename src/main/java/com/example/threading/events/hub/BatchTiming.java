package com.example.threading.events.hub;

import com.codahale.metrics.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Watches the polls of one event's batch and records, once the last of them is complete (or, for a standing poll, has
 * handed its news to the connection), the time from the event's arrival to that moment
 * ({@code events.event-to-last-write}), if the batch answered any of them.
 *
 * <p>Thread-safety: {@link #completed} is called once per poll of the batch (and once per news handed to a standing
 * poll), from the Jetty threads that complete them, concurrently; the countdown is atomic and exactly one call sees it
 * reach zero. {@code EventHubTest} checks it with a batch's writes racing the polls' timeouts on two threads,
 * {@code LongPollEndpointTest} through the service: each batch timed once.
 */
final class BatchTiming implements ParkedPoll.Watcher {

    private final AtomicInteger pending;
    private final long arrivedNanos;
    private final LongSupplier nanoClock;
    private final Timer eventToLastWrite;
    private volatile boolean anyAnswered;

    BatchTiming(int polls, long arrivedNanos, LongSupplier nanoClock, Timer eventToLastWrite) {
        this.pending = new AtomicInteger(polls);
        this.arrivedNanos = arrivedNanos;
        this.nanoClock = nanoClock;
        this.eventToLastWrite = eventToLastWrite;
    }

    @Override
    public void completed(boolean byBatch) {
        if (byBatch) {
            anyAnswered = true;
        }
        if (pending.decrementAndGet() == 0 && anyAnswered) {
            eventToLastWrite.update(nanoClock.getAsLong() - arrivedNanos, TimeUnit.NANOSECONDS);
        }
    }
}
