package com.example.threading.longpoll;

import com.codahale.metrics.Meter;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The blocking twin's waiting: a thread of {@code GET /events/blocking} sleeps here until an event after its
 * cursor, its timeout, or shutdown, and holds its (Jetty worker) thread all that time. It reads the hub's
 * {@link EventHistory} and sleeps on a condition of the hub's lock, so it sees exactly the events the parked
 * polls see.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Waiters: any number of threads may call {@link #await} at once; each takes the lock, and releases it
 *       while it sleeps.</li>
 *   <li>The hub: {@link #signalNews} (after appending an event) and {@link #close} must be called with the lock
 *       held, in the same hold that changed the history or closed the hub, and check it
 *       ({@link IllegalStateException}): a waiter checks the history and goes to sleep in one hold of the lock,
 *       so a change and its signal made in one hold can never fall between the two. Everything written in that
 *       hold happens-before the woken waiter reads it.</li>
 *   <li>Metrics: {@link #waiting} may be read from any thread (an atomic counter, current but not synchronized
 *       with the lock).</li>
 * </ul>
 */
final class BlockingWaits {

    private final ReentrantLock lock;
    private final Condition newEventOrClosed;
    private final EventHistory history;
    private final Meter timeouts;
    private final Meter missed;
    private final AtomicInteger waiting = new AtomicInteger();
    private boolean closed;

    /** Waits on {@code history}, which {@code lock} guards; counts timeouts and missed cursors in the given meters. */
    BlockingWaits(ReentrantLock lock, EventHistory history, Meter timeouts, Meter missed) {
        this.lock = lock;
        this.newEventOrClosed = lock.newCondition();
        this.history = history;
        this.timeouts = timeouts;
        this.missed = missed;
    }

    /** Threads waiting in {@link #await} right now. */
    int waiting() {
        return waiting.get();
    }

    /**
     * Blocks the calling thread until an event after {@code requestedCursor} (null: the next event), the
     * timeout, or {@link #close}. Returns the batch, {@link Outcome#TIMED_OUT} or {@link Outcome#CLOSED}.
     */
    Outcome await(Long requestedCursor, long timeoutMs) throws InterruptedException {
        lock.lock();
        waiting.incrementAndGet();
        try {
            long cursor = requestedCursor == null ? history.lastId() : requestedCursor;
            long remainingNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            while (!history.hasNewsFor(cursor)) {
                if (closed) {
                    return Outcome.CLOSED;
                }
                if (remainingNanos <= 0) {
                    timeouts.mark();
                    return Outcome.TIMED_OUT;
                }
                remainingNanos = newEventOrClosed.awaitNanos(remainingNanos);
            }
            EventBatch batch = history.after(cursor);
            if (batch.missed()) {
                missed.mark();
            }
            return new Outcome(batch);
        } finally {
            waiting.decrementAndGet();
            lock.unlock();
        }
    }

    /** Wakes every waiter to look at the history again; the caller holds the lock and has just appended an event. */
    void signalNews() {
        checkLocked();
        newEventOrClosed.signalAll();
    }

    /**
     * Wakes every waiter; from now on a wait without news ends at once with {@link Outcome#CLOSED}. The caller
     * holds the lock.
     */
    void close() {
        checkLocked();
        closed = true;
        newEventOrClosed.signalAll();
    }

    private void checkLocked() {
        if (!lock.isHeldByCurrentThread()) {
            throw new IllegalStateException("blocking waiters are signalled only while holding the hub's lock");
        }
    }

    /** How a blocking wait ended: with a batch, or as one of the two constants. */
    static final class Outcome {
        static final Outcome TIMED_OUT = new Outcome(null);
        static final Outcome CLOSED = new Outcome(null);

        final EventBatch batch;

        private Outcome(EventBatch batch) {
            this.batch = batch;
        }
    }
}
