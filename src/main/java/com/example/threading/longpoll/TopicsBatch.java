package com.example.threading.longpoll;

import java.util.List;
import java.util.Map;

/**
 * The answer to a poll of several topics: the news of every topic that has some, oldest first per topic, in the order
 * the topics were asked; {@code missed} when any topic's events after its cursor are no longer held; and each
 * topic's cursor to poll with next (unchanged for a topic without news).
 *
 * <p>Thread-safety: immutable (the map and list are copied, in their order).
 */
public record TopicsBatch(List<Event> events, boolean missed, Map<String, Long> cursors) {

    /** Copies list and map so the answer cannot change after it was built. */
    public TopicsBatch {
        events = List.copyOf(events);
        cursors = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(cursors));
    }
}
