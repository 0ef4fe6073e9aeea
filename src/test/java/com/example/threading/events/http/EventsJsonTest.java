package com.example.threading.events.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.history.EventBatch;
import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each event's JSON made once per answer for every client it reaches. */
class EventsJsonTest {

    @Test
    void theClientsOfOneAnswerShareEachEventsJsonMadeOnce() {
        EventsJson<byte[]> eventJson = new EventsJson<>(new JsonResponses(new ObjectMapper().findAndRegisterModules())::bytes);
        List<Event> events = List.of(new Event(1, "a", Instant.EPOCH, JsonNodeFactory.instance.objectNode()));
        EventBatch answer = new EventBatch(events, false, 1, "E1");
        EventBatch equalButAnother = new EventBatch(events, false, 1, "E1");

        List<byte[]> first = eventJson.of(answer, events);
        assertThat(eventJson.of(answer, events)).as("the same answer: the same bytes").isSameAs(first);
        assertThat(eventJson.of(equalButAnother, events)).as("another answer: made again").isNotSameAs(first)
                .usingRecursiveComparison().isEqualTo(first);
        assertThat(new String(first.get(0), StandardCharsets.UTF_8)).startsWith("{\"id\":1,\"topic\":\"a\"");
    }
}
