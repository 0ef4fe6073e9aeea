package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.history.EventBatch;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.PollParameters;
import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The text of an event stream, and each event's JSON made once per answer for every stream it reaches. */
class SseFramesTest {

    @Test
    void theIdIsEveryTopicsCursorWithItsEpochInTheOrderAsked() {
        Map<String, Long> cursors = new LinkedHashMap<>();
        cursors.put("a", 4L);
        cursors.put("b", 7L);
        cursors.put("c", null);
        String id = SseFrames.id(cursors, Map.of("a", "E1"));
        assertThat(id).isEqualTo("a:4:E1,b:7,c");
        // It reads back with the long-poll's cursor rules, as a Last-Event-ID does.
        assertThat(PollParameters.parse(id.split(","), null, null, null, 1, 1, 16).topics()).containsExactly(
                new TopicCursor("a", 4L, "E1"), new TopicCursor("b", 7L), new TopicCursor("c", null));
    }

    @Test
    void anEventIsItsIdTypeAndOneDataLineEndedByABlankLine() {
        byte[] frame = SseFrames.event("a:4:E1", "missed", "{\"missed\":true}".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(frame, StandardCharsets.UTF_8)).isEqualTo("id: a:4:E1\nevent: missed\ndata: {\"missed\":true}\n\n");
        assertThat(new String(SseFrames.event(null, null, "{}".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("data: {}\n\n");
    }

    @Test
    void theStreamsOfOneAnswerShareEachEventsJsonMadeOnce() {
        SseEventJson eventJson = new SseEventJson(new JsonResponses(new ObjectMapper().findAndRegisterModules()));
        List<Event> events = List.of(new Event(1, "a", Instant.EPOCH, JsonNodeFactory.instance.objectNode()));
        EventBatch answer = new EventBatch(events, false, 1, "E1");
        EventBatch equalButAnother = new EventBatch(events, false, 1, "E1");

        byte[][] first = eventJson.of(answer, events);
        assertThat(eventJson.of(answer, events)).as("the same answer: the same bytes").isSameAs(first);
        assertThat(eventJson.of(equalButAnother, events)).as("another answer: made again").isNotSameAs(first)
                .isDeepEqualTo(first);
        assertThat(new String(first[0], StandardCharsets.UTF_8)).startsWith("{\"id\":1,\"topic\":\"a\"");
    }
}
