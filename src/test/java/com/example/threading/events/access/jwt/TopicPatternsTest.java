package com.example.threading.events.access.jwt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exact names match themselves only; a trailing {@code *} makes a prefix; anything else is not a pattern. */
class TopicPatternsTest {

    @Test
    void anExactNameNeverMatchesALongerOne() {
        TopicPatterns room1 = TopicPatterns.of(List.of("room-1"));

        assertThat(room1.matches("room-1")).isTrue();
        assertThat(room1.matches("room-10")).isFalse();
        assertThat(room1.matches("room-")).isFalse();
        assertThat(room1.matches("Room-1")).isFalse();
    }

    @Test
    void aTrailingStarIsAPrefix() {
        TopicPatterns rooms = TopicPatterns.of(List.of("room-*"));

        assertThat(rooms.matches("room-1")).isTrue();
        assertThat(rooms.matches("room-10")).isTrue();
        assertThat(rooms.matches("room")).isFalse();
        assertThat(rooms.matches("roomy")).isFalse();
        assertThat(TopicPatterns.of(List.of("room-1*")).matches("room-10")).as("the prefix room-1 covers room-10").isTrue();
        assertThat(TopicPatterns.of(List.of("*")).matches("anything")).isTrue();
    }

    @Test
    void noEntriesMatchNothing() {
        assertThat(TopicPatterns.NONE.matches("default")).isFalse();
        assertThat(TopicPatterns.of(List.of()).matches("room-1")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "room 1", "room/1", "*room", "ro*om", "room-**", "caf\u00e9", "room:1",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
    void anythingElseIsNotAPattern(String entry) {
        assertThatThrownBy(() -> TopicPatterns.of(List.of("room-1", entry))).isInstanceOf(IllegalArgumentException.class);
    }
}
