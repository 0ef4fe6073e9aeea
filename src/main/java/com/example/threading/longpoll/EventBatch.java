package com.example.threading.longpoll;

import java.util.List;

/**
 * The body of a {@code 200} poll answer: {@code {"events":[...],"missed":false,"lastId":7}}.
 * {@code lastId} is the cursor for the next poll ({@code after=lastId}); {@code missed} says that events
 * between the client's cursor and the first listed event fell out of the history ring.
 *
 * <p>Thread-safety: immutable.
 */
public record EventBatch(List<Event> events, boolean missed, long lastId) {

    /** Copies the list so the batch cannot change after it was built. */
    public EventBatch {
        events = List.copyOf(events);
    }
}
