package com.example.threading.load.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void durationsReadAsPeopleTypeThem() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("2s")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Durations.parse("3m")).isEqualTo(Duration.ofMinutes(3));
        assertThat(Durations.parse("PT10S")).isEqualTo(Duration.ofSeconds(10));
        assertThat(Durations.format(Duration.ofSeconds(150))).isEqualTo("150s");
        assertThatThrownBy(() -> Durations.parse("soon")).hasMessageContaining("not a duration");
    }
}
