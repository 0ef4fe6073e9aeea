package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import java.util.List;

/**
 * The next events of one topic for a client that stays subscribed to it (an event stream, a socket): the events the
 * hub appended together, oldest first, in {@code epoch} (null where the stream has none); {@code missed} when the
 * topic's history started over (a shared stream recreated), whose events are then all of the new history.
 */
public record TopicNews(String topic, List<Event> events, boolean missed, String epoch) {

    /** Copies the list so the news cannot change after it was built. */
    public TopicNews {
        events = List.copyOf(events);
    }
}
