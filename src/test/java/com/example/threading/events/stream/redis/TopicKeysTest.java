package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A topic's keys share a Redis Cluster hash slot (one hash tag), and a stream key names its topic back. */
class TopicKeysTest {

    private final TopicKeys keys = new TopicKeys("threading:events");

    @Test
    void aTopicsKeysShareOneHashTag() {
        assertThat(keys.stream("room-1")).isEqualTo("threading:events:{room-1}");
        assertThat(keys.counter("room-1")).isEqualTo("threading:events:{room-1}:last-id");
        assertThat(keys.tickerLease()).isEqualTo("threading:events:ticker");
    }

    @Test
    void aStreamKeyNamesItsTopic() {
        assertThat(keys.topicOf("threading:events:{room-1}")).isEqualTo("room-1");
        assertThat(keys.topicOf("threading:events:{room-1}:last-id")).isNull();
        assertThat(keys.topicOf("other:{room-1}")).isNull();
    }
}
