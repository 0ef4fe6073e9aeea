package com.example.threading.longpoll;

import java.util.ArrayList;
import java.util.List;

/**
 * The most recent events in a fixed-size ring, answering "what came after cursor {@code n}?".
 *
 * <p>Thread-safety: not thread-safe; the {@link EventHub} guards it with its lock.
 */
final class EventHistory {

    private final Event[] ring;
    private long lastId;
    private int size;

    EventHistory(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.ring = new Event[capacity];
    }

    /** Appends the next event; returns false (and keeps nothing) for an id at or below the last one, e.g. a redelivery. */
    boolean append(Event event) {
        if (event.id() <= lastId) {
            return false;
        }
        ring[(int) (event.id() % ring.length)] = event;
        // A gap in ids (possible with a shared source) leaves older slots in place; after() skips them by id.
        size = (int) Math.min(ring.length, size + (event.id() - lastId));
        lastId = event.id();
        return true;
    }

    /** Id of the newest event, 0 before the first. */
    long lastId() {
        return lastId;
    }

    /** True when a poll with this cursor has something to read at once: newer events, or a cursor this stream never issued. */
    boolean hasNewsFor(long cursor) {
        return cursor != lastId;
    }

    /**
     * The events after {@code cursor}, oldest first. {@code missed} is set when events after the cursor are no
     * longer held, or when the cursor lies beyond the newest id (e.g. one from before a restart); either way
     * the client should continue from {@code lastId}.
     */
    EventBatch after(long cursor) {
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
        return new EventBatch(events, missed, lastId);
    }
}
