package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.events.stream.Event;
import io.dropwizard.jackson.Jackson;
import io.lettuce.core.StreamMessage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Stream entries (and a cluster's shard-channel announcements) to events and back, without Redis: ids, time, data, and
 * entries that are not events.
 */
class StreamEntriesTest {

    private final StreamEntries entries = new StreamEntries(Jackson.newObjectMapper());

    @Test
    void anEntryBecomesTheEventItWasWrittenFrom() {
        Event event = entries.event("room-1", new StreamMessage<>("events:{room-1}", "42-0",
                Map.of(StreamEntries.TIME, "1732363200123", StreamEntries.EPOCH, "1732363200123456",
                        StreamEntries.DATA, "{\"tick\":7}")));
        assertThat(event.id()).isEqualTo(42);
        assertThat(event.topic()).isEqualTo("room-1");
        assertThat(event.epoch()).isEqualTo("1732363200123456");
        assertThat(event.time()).isEqualTo(Instant.ofEpochMilli(1732363200123L));
        assertThat(event.data().get("tick").asInt()).isEqualTo(7);
        assertThat(StreamEntries.entryId(42)).isEqualTo("42-0");
        assertThat(StreamEntries.idOf("42-0")).isEqualTo(42);
    }

    @Test
    void aScriptsRawRangeSkipsEntriesThatAreNotEvents() {
        List<Event> events = entries.events("room-1", List.of(
                List.of("5-0", List.of("time", "1000", "data", "1")),
                List.of("6-0", List.of("somebody", "else")),
                List.of("7-0", List.of("data", "\"x\"", "time", "2000"))));
        assertThat(events).extracting(Event::id).containsExactly(5L, 7L);
        assertThat(events.get(1).data().asText()).isEqualTo("x");
        assertThat(events.get(1).epoch()).as("an entry written before streams had epochs").isNull();
    }

    @Test
    void anEntryWithoutItsFieldsIsRefusedNamingIt() {
        assertThatThrownBy(() -> entries.event("room-1", "9-0", Map.of("data", "{}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("9-0");
        assertThatThrownBy(() -> entries.event("room-1", "9-0", Map.of("time", "x", "data", "{}")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an event");
    }

    @Test
    void aShardChannelAnnouncementBecomesItsEventWhateverColonsItsDataHolds() {
        Event event = entries.announced("room-1", "42:1732363200123:1732363200000001:{\"at\":\"12:00\"}");
        assertThat(event.id()).isEqualTo(42);
        assertThat(event.time()).isEqualTo(Instant.ofEpochMilli(1732363200123L));
        assertThat(event.epoch()).isEqualTo("1732363200000001");
        assertThat(event.data().get("at").asText()).isEqualTo("12:00");
        assertThatThrownBy(() -> entries.announced("room-1", "hello"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hello");
        assertThatThrownBy(() -> entries.announced("room-1", "42:1732363200123:{}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("<epoch>");
        assertThatThrownBy(() -> entries.announced("room-1", "x:1:e:{}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an event");
    }
}
