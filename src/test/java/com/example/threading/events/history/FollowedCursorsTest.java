package com.example.threading.events.history;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.http.PollParameters;
import com.example.threading.events.stream.Event;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A following client's cursors: its position, and how each answer advances it. */
class FollowedCursorsTest {

    @Test
    void thePositionIsEveryTopicsCursorWithItsEpochInTheOrderAsked() {
        FollowedCursors cursors = new FollowedCursors(List.of(new TopicCursor("a", 4L, "E1"), new TopicCursor("b", 7L),
                new TopicCursor("c", null)));
        String position = cursors.position();
        assertThat(position).isEqualTo("a:4:E1,b:7,c");
        // It reads back with the long-poll's cursor rules, as a Last-Event-ID or a socket's query does.
        assertThat(PollParameters.parse(position.split(","), null, null, null, 1, 1, 16).topics())
                .containsExactlyElementsOf(cursors.asked());
    }

    @Test
    void eachEventCarriesThePositionAfterItAndALossThePositionBeforeTheFirst() {
        FollowedCursors cursors = new FollowedCursors(List.of(new TopicCursor("a", 2L, "E1"), new TopicCursor("b", null)));
        Map<String, Long> next = new LinkedHashMap<>();
        next.put("a", 9L);
        next.put("b", 5L);
        TopicsBatch answer = new TopicsBatch(List.of(event(8, "a"), event(5, "b"), event(9, "a")), true, next, Map.of("a", "E1", "b", "E2"));

        FollowedCursors.Read read = cursors.read(answer);

        assertThat(read.missedAt()).as("just before each topic's first event").isEqualTo("a:7:E1,b:4:E2");
        assertThat(read.positions()).map(Object::toString).containsExactly("a:8:E1,b:4:E2", "a:8:E1,b:5:E2", "a:9:E1,b:5:E2");
        assertThat(cursors.position()).isEqualTo("a:9:E1,b:5:E2");
    }

    @Test
    void aPositionCopiesItsUtf8BytesWhereAskedAndKeepsThemWhenTheCursorsMoveOn() {
        FollowedCursors cursors = new FollowedCursors(List.of(new TopicCursor("a", 1L, "E1"), new TopicCursor("b", 2L)));
        FollowedCursors.Position first = cursors.read(new TopicNews("b", List.of(event(3, "b")), false, "é1")).positions().get(0);
        cursors.read(new TopicNews("a", List.of(event(2, "a")), false, "E1"));

        assertThat(first.length()).as("in UTF-8 bytes").isEqualTo("a:1:E1,b:3:é1".getBytes(StandardCharsets.UTF_8).length);
        byte[] into = new byte[first.length() + 4];
        assertThat(first.copyTo(into, 2)).isEqualTo(2 + first.length());
        assertThat(new String(into, 2, first.length(), StandardCharsets.UTF_8)).isEqualTo("a:1:E1,b:3:é1").isEqualTo(first.toString());
        assertThat(cursors.position()).isEqualTo("a:2:E1,b:3:é1");
    }

    @Test
    void aTopicFollowedWithoutACursorKeepsTheOneItWasParkedAt() {
        FollowedCursors cursors = new FollowedCursors(List.of(new TopicCursor("a", 3L), new TopicCursor("b", null)));
        cursors.keepParked(Map.of("a", 5L, "b", 11L));
        assertThat(cursors.position()).as("a had a cursor of its own").isEqualTo("a:3,b:11");
        cursors.follow(new TopicCursor("c", 1L, "E3"));
        cursors.drop("a");
        assertThat(cursors.topics()).containsExactly("b", "c");
        assertThat(cursors.position()).isEqualTo("b:11,c:1:E3");
    }

    @Test
    void eachTopicsPartFollowsItsOwnChangesAcrossNewsFromAStandingSubscription() {
        FollowedCursors cursors = new FollowedCursors(List.of(new TopicCursor("a", 1L, "E1"), new TopicCursor("b", 2L, "E2")));
        assertThat(cursors.position()).isEqualTo("a:1:E1,b:2:E2");

        assertThat(cursors.read(new TopicNews("b", List.of(event(3, "b"), event(4, "b")), false, "E2")).positions())
                .map(Object::toString).containsExactly("a:1:E1,b:3:E2", "a:1:E1,b:4:E2");
        FollowedCursors.Read startedOver = cursors.read(new TopicNews("a", List.of(event(1, "a")), true, "F1"));
        assertThat(startedOver.missedAt()).as("a new history: its epoch, before its first event").isEqualTo("a:0:F1,b:4:E2");
        assertThat(startedOver.positions()).map(Object::toString).containsExactly("a:1:F1,b:4:E2");

        cursors.follow(new TopicCursor("b", 9L)); // asked again without an epoch: the old one is not kept
        cursors.keepParked(Map.of("a", 7L, "b", 8L)); // both have cursors of their own
        assertThat(cursors.position()).isEqualTo("a:1:F1,b:9");
        assertThat(cursors.asked()).containsExactly(new TopicCursor("a", 1L, "F1"), new TopicCursor("b", 9L));
        assertThat(cursors.read(new TopicNews("b", List.of(), false, null)).positions()).isEmpty();
        assertThat(cursors.position()).as("news without events moves nothing").isEqualTo("a:1:F1,b:9");
    }

    private static Event event(long id, String topic) {
        return new Event(id, topic, Instant.EPOCH, JsonNodeFactory.instance.objectNode());
    }
}
