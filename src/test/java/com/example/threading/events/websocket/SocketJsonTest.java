package com.example.threading.events.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.history.FollowedCursors;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.history.TopicNews;
import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An event's message, made as bytes from the event's shared JSON and the socket's position after it. */
class SocketJsonTest {

    private final ObjectMapper mapper = Jackson.newObjectMapper();

    @Test
    void anEventMessageIsTheEventAsTheLongPollListsItAndThePositionAfterIt() throws Exception {
        Event event = new Event(5, "a", Instant.parse("2026-11-29T10:00:00Z"), mapper.readTree("{\"text\":\"grüße\"}"));
        FollowedCursors cursors = new FollowedCursors(List.of(new TopicCursor("a", 4L, "E1"), new TopicCursor("b", 7L)));
        FollowedCursors.Position after = cursors.read(new TopicNews("a", List.of(event), false, "E1")).positions().get(0);

        byte[] message = SocketJson.event(mapper.writeValueAsBytes(event), after);

        JsonNode read = mapper.readTree(message);
        assertThat(read.path("type").asText()).isEqualTo("event");
        assertThat(read.path("event")).isEqualTo(mapper.readTree(mapper.writeValueAsBytes(event)));
        assertThat(read.path("event").path("data").path("text").asText()).as("UTF-8 data kept whole").isEqualTo("grüße");
        assertThat(read.path("position").asText()).isEqualTo("a:5:E1,b:7");
        assertThat(read.size()).isEqualTo(3);
    }
}
