package com.example.threading.events.stream;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;

/**
 * An event as a publisher hands it to an {@link EventSink}: its topic and data, before the stream numbers it.
 *
 * @param topic a checked topic name ({@link TopicNames})
 * @param data  the publisher's JSON, as given
 */
public record NewEvent(String topic, JsonNode data) {

    /** Checks the components. */
    public NewEvent {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(data, "data");
    }
}
