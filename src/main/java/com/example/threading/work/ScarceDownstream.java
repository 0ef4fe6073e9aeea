package com.example.threading.work;

import com.codahale.metrics.Meter;
import com.codahale.metrics.Timer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A downstream with a fixed number of connections that {@code /work/virtual}'s waits share, as a pool of N database
 * or HTTP connections would: each wait holds one for its length. Virtual threads make the threads cheap; this is the
 * thing that stays scarce.
 * <ul>
 *   <li>Without a bulkhead a task waits for a connection as long as it takes: every request beyond N parks a virtual
 *       thread (with its stack, its request and its response) behind the N, and its latency grows with the queue.</li>
 *   <li>With one ({@code maxWait}), a task waits at most that long and is refused, which {@code /work/virtual}
 *       answers 503 with Retry-After: the excess is answered fast, and what waits is bounded.</li>
 * </ul>
 *
 * <p>Thread-safety: any number of tasks call {@link #call} at once, each on its own thread; the connections are a fair
 * {@link Semaphore} (first come, first served), taken and given back by the same task, and a release happens-before
 * the acquire that reuses the connection. {@link #inUse} and {@link #waiting} are snapshots. {@code ScarceDownstreamTest}.
 */
final class ScarceDownstream {

    /** The bulkhead refused the task: no connection within {@code maxWait}. */
    static final class Busy extends Exception {
        private static final long serialVersionUID = 1L;

        Busy(String message) {
            super(message, null, false, false);
        }
    }

    private final int connections;
    private final Semaphore free;
    private final Optional<Duration> maxWait;
    private final AtomicInteger waiting = new AtomicInteger();
    private final Timer waited;
    private final Meter refused;

    /** {@code connections} connections; a task waits for one at most {@code maxWait}, or as long as it takes when empty. */
    ScarceDownstream(int connections, Optional<Duration> maxWait, Timer waited, Meter refused) {
        this.connections = connections;
        this.free = new Semaphore(connections, true);
        this.maxWait = maxWait;
        this.waited = waited;
        this.refused = refused;
    }

    /** Runs {@code work} holding one connection; {@link Busy} when the bulkhead gives up waiting for one. */
    <T> T call(Callable<T> work) throws Exception {
        long start = System.nanoTime();
        waiting.incrementAndGet();
        boolean taken;
        try {
            if (maxWait.isPresent()) {
                taken = free.tryAcquire(maxWait.get().toNanos(), TimeUnit.NANOSECONDS);
            } else {
                free.acquire();
                taken = true;
            }
        } finally {
            waiting.decrementAndGet();
            waited.update(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
        if (!taken) {
            refused.mark();
            throw new Busy("all " + connections + " downstream connections busy for " + maxWait.orElseThrow().toMillis()
                    + " ms (work.virtual.maxWait)");
        }
        try {
            return work.call();
        } finally {
            free.release();
        }
    }

    /** Connections held right now. */
    int inUse() {
        return connections - free.availablePermits();
    }

    /** Tasks waiting for a connection right now. */
    int waiting() {
        return waiting.get();
    }
}
