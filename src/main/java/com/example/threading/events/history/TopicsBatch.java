package com.example.threading.events.history;

import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer to a poll of several topics: the news of every topic that has some, oldest first per topic, in the order
 * the topics were asked; {@code missed} when any topic's events after its cursor are no longer held (or its cursor
 * belongs to another history); each topic's cursor to poll with next (unchanged for a topic without news); and the
 * epoch of each topic with news, where the stream has epochs ({@code topic=T:N:E} on the next poll).
 */
public record TopicsBatch(List<Event> events, boolean missed, Map<String, Long> cursors,
                          @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> epochs) {

    /** Copies list and maps so the answer cannot change after it was built. */
    public TopicsBatch {
        events = List.copyOf(events);
        cursors = Collections.unmodifiableMap(new LinkedHashMap<>(cursors));
        epochs = Collections.unmodifiableMap(new LinkedHashMap<>(epochs));
    }
}
