package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.history.FollowedCursors;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.history.TopicNews;
import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text of an event stream. */
class SseFramesTest {

    @Test
    void anEventIsItsIdTypeAndOneDataLineEndedByABlankLine() {
        byte[] frame = SseFrames.event("a:4:E1", "missed", "{\"missed\":true}".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(frame, StandardCharsets.UTF_8)).isEqualTo("id: a:4:E1\nevent: missed\ndata: {\"missed\":true}\n\n");
        assertThat(new String(SseFrames.event(null, null, "{}".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
                .isEqualTo("data: {}\n\n");
    }

    @Test
    void anEventOfTheDefaultTypeCopiesItsPositionAsItsId() {
        FollowedCursors cursors = new FollowedCursors(List.of(new TopicCursor("a", 4L, "E1"), new TopicCursor("b", 7L)));
        Event event = new Event(5, "a", Instant.EPOCH, JsonNodeFactory.instance.objectNode());
        FollowedCursors.Position position = cursors.read(new TopicNews("a", List.of(event), false, "E1")).positions().get(0);
        byte[] data = "{\"n\":1}".getBytes(StandardCharsets.UTF_8);
        assertThat(SseFrames.event(position, data)).isEqualTo(SseFrames.event("a:5:E1,b:7", null, data));
    }
}
