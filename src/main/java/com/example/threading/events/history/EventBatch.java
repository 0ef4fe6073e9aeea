package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The body of a {@code 200} poll answer: {@code {"events":[...],"missed":false,"lastId":7,"epoch":"mi2x9k1c-1"}}.
 * {@code lastId} is the cursor for the next poll ({@code after=lastId}); {@code missed} says that events
 * between the client's cursor and the first listed event fell out of the history ring, or that the cursor belongs to
 * another history; {@code epoch} names the history the ids belong to (absent where the stream has none), to be sent
 * back with the cursor ({@code epoch=}).
 */
public record EventBatch(List<Event> events, boolean missed, long lastId,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String epoch) {

    /** Copies the list so the batch cannot change after it was built. */
    public EventBatch {
        events = List.copyOf(events);
    }

    /** A batch of a history without an epoch. */
    public EventBatch(List<Event> events, boolean missed, long lastId) {
        this(events, missed, lastId, null);
    }
}
