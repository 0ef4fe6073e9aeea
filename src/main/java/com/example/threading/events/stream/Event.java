package com.example.threading.events.stream;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One published event: {@code {"id":7,"topic":"room-1","time":"2026-11-22T13:50:00.123Z","data":{...}}}.
 * Ids increase by one per event within a topic and {@code epoch} of its history; {@code data} is the publisher's JSON as
 * given. {@code epoch} names the history of a shared stream the event was numbered in (null in-process, where the hub's
 * ring names it); it is not written with the event: answers carry it once per topic.
 */
public record Event(long id, String topic, @JsonFormat(shape = JsonFormat.Shape.STRING) Instant time, JsonNode data,
                    @JsonIgnore String epoch) {

    /** Checks the components; ids start at 1 so that 0 can mean "before the first event". */
    public Event {
        if (id < 1) {
            throw new IllegalArgumentException("event ids start at 1: " + id);
        }
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }

    /** An event numbered where the history has no epoch of its own (in-process). */
    public Event(long id, String topic, Instant time, JsonNode data) {
        this(id, topic, time, data, null);
    }
}
