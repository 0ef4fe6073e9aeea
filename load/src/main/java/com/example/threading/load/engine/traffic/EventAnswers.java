package com.example.threading.load.engine.traffic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Optional;

/**
 * Reading the service's answer to {@code POST /events}: {@code {"id":n,...}}.
 */
final class EventAnswers {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EventAnswers() {
    }

    /** The id of the published event, or empty when the body is not such an answer. */
    static Optional<Long> idOf(String body) {
        try {
            JsonNode id = JSON.readTree(body).get("id");
            return id == null ? Optional.empty() : Optional.of(id.asLong());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
