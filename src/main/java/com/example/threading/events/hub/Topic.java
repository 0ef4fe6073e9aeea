package com.example.threading.events.hub;

import com.example.threading.events.history.EventHistory;


/**
 * One topic held by the hub: its recent events ({@link EventHistory}), the polls parked on it ({@link ParkedPolls}),
 * and when it was last used (a poll placed or an event appended), for eviction.
 *
 * <p>Used only with the hub's lock held (its history checks it).
 */
final class Topic {

    private final String name;
    private final EventHistory history;
    private final ParkedPolls parked;
    private long lastUsedNanos;
    private int blockingWaiters;

    Topic(String name, EventHistory history, long nowNanos) {
        this.name = name;
        this.history = history;
        this.parked = new ParkedPolls(name);
        this.lastUsedNanos = nowNanos;
    }

    String name() {
        return name;
    }

    EventHistory history() {
        return history;
    }

    ParkedPolls parked() {
        return parked;
    }

    /** Marks the topic used at {@code nowNanos}: it is not idle. */
    void used(long nowNanos) {
        lastUsedNanos = nowNanos;
    }

    /** A thread of the blocking twin waits on this topic ({@code +1}) or stopped waiting ({@code -1}). */
    void blockingWaiters(int change) {
        blockingWaiters += change;
    }

    /** Unused since {@code idleNanos} before {@code nowNanos}, and no poll or blocked thread waits on it. */
    boolean idle(long nowNanos, long idleNanos) {
        return parked.isEmpty() && blockingWaiters == 0 && nowNanos - lastUsedNanos >= idleNanos;
    }
}
