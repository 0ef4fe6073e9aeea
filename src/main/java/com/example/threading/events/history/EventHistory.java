package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The most recent events in a fixed-size ring, answering "what came after cursor {@code n}?".
 *
 * <p>Thread-safety: not thread-safe by itself: every method must be called with {@code guard} held (the
 * {@code EventHub}'s lock, shared with {@code EventHub}'s blocking waiters), and checks that it is, throwing
 * {@link IllegalStateException} otherwise. The check is one comparison of the lock's owner with the calling
 * thread, and it turns a forgotten lock (a poll reading a ring half-way through an append) from a rare wrong
 * answer into an immediate failure. Under that lock, an append happens-before every later read. (A check at run
 * time, not Error Prone's {@code @GuardedBy}: the lock is the hub's, taken in another class.) {@code EventHistoryTest}
 * checks the check; {@code EventHistoryLincheckTest} checks the reads over the interleavings of appends, a start-over
 * and reads, each under the lock.
 */
public final class EventHistory {

    private final Event[] ring;
    private final ReentrantLock guard;
    private String epoch;
    private long lastId;
    private int size;

    /** A ring of {@code capacity} events, to be used only while holding {@code guard}, without an epoch. */
    public EventHistory(int capacity, ReentrantLock guard) {
        this(capacity, guard, null);
    }

    /**
     * A ring of {@code capacity} events of the history named {@code epoch}, to be used only while holding {@code guard}.
     * Null: the epoch is the one the events carry (a shared stream's), taken from the first, and the ring starts over
     * when an event of another epoch arrives (the stream was recreated); an in-process ring's epoch never changes.
     */
    public EventHistory(int capacity, ReentrantLock guard, String epoch) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.ring = new Event[capacity];
        this.guard = guard;
        this.epoch = epoch;
    }

    /**
     * Whether {@code asked}'s cursor belongs to this history; a cursor without an epoch, or a history without one (yet),
     * is taken as of this history.
     */
    public boolean sameEpoch(TopicCursor asked) {
        checkGuarded();
        return !asked.otherEpochThan(epoch);
    }

    /** The epoch of this history, null while it has none. */
    public String epoch() {
        checkGuarded();
        return epoch;
    }

    /**
     * Whether this ring started over in another epoch since it was in {@code epochBefore} (its shared stream was
     * recreated); false when {@code epochBefore} is null (a ring takes its first epoch without starting over).
     */
    public boolean startedOverSince(String epochBefore) {
        checkGuarded();
        return epochBefore != null && !epochBefore.equals(epoch);
    }

    /** The answer to a cursor of another history: nothing, {@code missed}, and where to go on from in this one. */
    public EventBatch epochChanged() {
        checkGuarded();
        return new EventBatch(List.of(), true, lastId, epoch);
    }

    /**
     * The in-process reading of {@code asked}, where the ring is all the history there is: any cursor but the newest id
     * has news (or missed), and a cursor of another epoch (before a restart, or before the topic was evicted) is missed
     * at once.
     */
    public CursorReading read(TopicCursor asked) {
        checkGuarded();
        if (!sameEpoch(asked)) {
            return new CursorReading.News(lastId, epochChanged());
        }
        long cursor = asked.after() == null ? lastId : asked.after();
        return hasNewsFor(cursor) ? new CursorReading.News(cursor, after(cursor)) : new CursorReading.Wait(cursor);
    }

    /**
     * Appends the next event; returns false (and keeps nothing) for an id at or below the last one, e.g. a redelivery.
     * An event of another epoch than the ring's starts the ring over in that epoch (see {@link #startedOver}).
     */
    public boolean append(Event event) {
        checkGuarded();
        if (event.epoch() != null && !event.epoch().equals(epoch)) {
            if (epoch != null) {
                Arrays.fill(ring, null);
                lastId = 0;
                size = 0;
            }
            epoch = event.epoch();
        }
        if (event.id() <= lastId) {
            return false;
        }
        ring[(int) (event.id() % ring.length)] = event;
        // A gap in ids (possible with a shared source) leaves older slots in place; after() skips them by id. The
        // first event starts the history: a shared stream's reader may begin at any id, and the ids below it were
        // not seen here (they are not held), so older cursors are missed, or read from the stream's archive.
        size = lastId == 0 ? 1 : (int) Math.min(ring.length, size + (event.id() - lastId));
        lastId = event.id();
        return true;
    }

    /**
     * The answer to a poll parked in an earlier epoch of this ring, which started over since: every event it holds (all
     * of this epoch), {@code missed}, and where to go on from.
     */
    public EventBatch startedOver() {
        checkGuarded();
        EventBatch held = after(0);
        return new EventBatch(held.events(), true, lastId, epoch);
    }

    /** Id of the newest event, 0 before the first. */
    public long lastId() {
        checkGuarded();
        return lastId;
    }

    /** True when a poll with this cursor has something to read at once: newer events, or a cursor this stream never issued. */
    public boolean hasNewsFor(long cursor) {
        checkGuarded();
        return cursor != lastId;
    }

    /**
     * True when the ring can answer {@code cursor} exactly: it is at or below the newest id and every event after it
     * is still held (so {@link #after} would not say {@code missed}).
     */
    public boolean covers(long cursor) {
        checkGuarded();
        return cursor <= lastId && cursor >= lastId - size;
    }

    /**
     * The events after {@code cursor}, oldest first. {@code missed} is set when events after the cursor are no
     * longer held, or when the cursor lies beyond the newest id (e.g. one from before a restart); either way
     * the client should continue from {@code lastId}.
     */
    public EventBatch after(long cursor) {
        checkGuarded();
        long oldestHeld = lastId - size + 1;
        boolean beyondNewest = cursor > lastId;
        long from = beyondNewest ? oldestHeld : Math.max(cursor + 1, oldestHeld);
        boolean missed = beyondNewest || cursor + 1 < oldestHeld;
        List<Event> events = new ArrayList<>((int) Math.max(0, lastId - from + 1));
        for (long id = from; id <= lastId; id++) {
            Event event = ring[(int) (id % ring.length)];
            if (event != null && event.id() == id) {
                events.add(event);
            }
        }
        return new EventBatch(events, missed, lastId, epoch);
    }

    private void checkGuarded() {
        if (!guard.isHeldByCurrentThread()) {
            throw new IllegalStateException("the event history must be used while holding its guard lock");
        }
    }
}
