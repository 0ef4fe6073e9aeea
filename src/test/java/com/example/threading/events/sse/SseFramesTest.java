package com.example.threading.events.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
}
