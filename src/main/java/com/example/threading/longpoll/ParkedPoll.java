package com.example.threading.longpoll;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One {@code GET /events} request held in async mode, with the cursor it reads from.
 *
 * <p>Thread-safety: the batch writer, Jetty's timeout and failure callbacks and the shutdown listener may all try
 * to answer the same poll. {@link #claim} lets exactly one of them win; {@link #markParked} and {@link #claim}
 * move one atomic state, so the hub's parked count is decremented exactly once for every poll it counted.
 * {@link #watch} and {@link #onComplete} hand over through one atomic reference, so a watcher is told about the
 * completion exactly once, whichever comes first. {@code cursor} is written under the hub's lock before the poll
 * enters the parked set and read after it was taken out under the same lock.
 */
final class ParkedPoll implements AsyncListener {

    private static final int NEW = 0;
    private static final int PARKED = 1;
    private static final int CLAIMED = 2;
    private static final Object COMPLETED = new Object();

    /** Told when a watched poll's request is complete, however it was answered. */
    interface Watcher {
        /** {@code byWatcher}: the poll was answered by the claim of this watcher (not by its timeout, a failure or shutdown). */
        void completed(boolean byWatcher);
    }

    private final AsyncContext context;
    private final EventHub hub;
    private final AtomicInteger state = new AtomicInteger(NEW);
    private final AtomicReference<Object> watcher = new AtomicReference<>();
    private volatile Object claimedBy;
    private long cursor;

    ParkedPoll(AsyncContext context, EventHub hub) {
        this.context = context;
        this.hub = hub;
    }

    AsyncContext context() {
        return context;
    }

    long cursor() {
        return cursor;
    }

    /** Moves a new poll to parked, reading after {@code cursor}; false if it was claimed meanwhile (e.g. by its timeout). */
    boolean markParked(long cursor) {
        this.cursor = cursor;
        return state.compareAndSet(NEW, PARKED);
    }

    /**
     * Takes the right to answer this poll for {@code owner}. Returns {@link Claim#LOST} if someone else has it,
     * {@link Claim#WAS_PARKED} if it was counted as parked, {@link Claim#WAS_NEW} otherwise.
     */
    Claim claim(Object owner) {
        while (true) {
            int current = state.get();
            if (current == CLAIMED) {
                return Claim.LOST;
            }
            if (state.compareAndSet(current, CLAIMED)) {
                claimedBy = owner;
                return current == PARKED ? Claim.WAS_PARKED : Claim.WAS_NEW;
            }
        }
    }

    /** Outcome of {@link #claim}. */
    enum Claim {
        LOST, WAS_NEW, WAS_PARKED
    }

    /** Asks to be told when the request completes; false if it already has (then nothing will be told). */
    boolean watch(Watcher completion) {
        return watcher.compareAndSet(null, completion);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        hub.timedOut(this);
    }

    @Override
    public void onError(AsyncEvent event) {
        hub.failed(this, event.getThrowable());
    }

    @Override
    public void onComplete(AsyncEvent event) {
        Object previous = watcher.getAndSet(COMPLETED);
        if (previous instanceof Watcher completion) {
            completion.completed(claimedBy == completion);
        }
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // Not re-dispatched: a poll starts async once.
    }
}
