package com.example.threading.longpoll;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One {@code GET /events} request held in async mode, with the cursor it reads from.
 *
 * <p>Thread-safety: the event dispatcher, Jetty's timeout and failure callbacks and the shutdown listener may
 * all try to answer the same poll at once. {@link #claim} lets exactly one of them win; {@link #markParked}
 * and {@link #claim} move one atomic state, so the hub's parked count is decremented exactly once for every
 * poll it counted.
 */
final class ParkedPoll implements AsyncListener {

    private static final int NEW = 0;
    private static final int PARKED = 1;
    private static final int CLAIMED = 2;

    private final AsyncContext context;
    private final EventHub hub;
    private final AtomicInteger state = new AtomicInteger(NEW);
    private long cursor; // written under the hub's lock before the poll enters the parked set, read after it left it

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
     * Takes the right to answer this poll. Returns {@link Claim#LOST} if someone else has it,
     * {@link Claim#WAS_PARKED} if it was counted as parked, {@link Claim#WAS_NEW} otherwise.
     */
    Claim claim() {
        while (true) {
            int current = state.get();
            if (current == CLAIMED) {
                return Claim.LOST;
            }
            if (state.compareAndSet(current, CLAIMED)) {
                return current == PARKED ? Claim.WAS_PARKED : Claim.WAS_NEW;
            }
        }
    }

    /** Outcome of {@link #claim}. */
    enum Claim {
        LOST, WAS_NEW, WAS_PARKED
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
        // Every path that answers also completes; nothing to release here.
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
        // Not re-dispatched: a poll starts async once.
    }
}
