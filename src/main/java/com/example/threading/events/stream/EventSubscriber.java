package com.example.threading.events.stream;

import java.util.List;

/**
 * What an {@link EventSource} delivers to: the hub. Events come one by one, or several at once when they were
 * published together ({@code POST /events/batch}), so that a poll waiting on several of their topics is answered once,
 * with all of them, rather than once per event and again after each re-poll.
 * Its source calls it from one thread at a time ({@link EventSource}'s contract).
 */
public interface EventSubscriber {

    /** Takes the next event. */
    void accept(Event event);

    /** Takes several events, in id order per topic, as if one by one, but answers each poll they wake once. */
    default void acceptAll(List<Event> events) {
        events.forEach(this::accept);
    }
}
