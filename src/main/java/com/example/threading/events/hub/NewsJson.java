package com.example.threading.events.hub;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.UncheckedIOException;

/**
 * Makes the hub's news answers: an answer body and its JSON, serialized once and shared by every poll of a batch that
 * reads after the same cursors (the long-poll writes it as its body). The hub's only use of JSON; it knows no HTTP.
 */
final class NewsJson {

    private final ObjectWriter writer;

    /** Serializes with {@code mapper}'s configuration (the application's, so answers look like the rest of the API). */
    NewsJson(ObjectMapper mapper) {
        this.writer = mapper.writer();
    }

    /** News of {@code answer}, an {@link com.example.threading.events.history.EventBatch} or a {@link com.example.threading.events.history.TopicsBatch}. */
    Answer.News of(Object answer) {
        try {
            return new Answer.News(answer, writer.writeValueAsBytes(answer));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
