package com.example.threading.longpoll;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One published event: {@code {"id":7,"topic":"room-1","time":"2026-11-22T13:50:00.123Z","data":{...}}}.
 * Ids increase by one per event within a topic; {@code data} is the publisher's JSON as given.
 */
public record Event(long id, String topic, @JsonFormat(shape = JsonFormat.Shape.STRING) Instant time, JsonNode data) {

    /** Checks the components; ids start at 1 so that 0 can mean "before the first event". */
    public Event {
        if (id < 1) {
            throw new IllegalArgumentException("event ids start at 1: " + id);
        }
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }
}
