package com.example.threading.load.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    @Test
    void caseSpacesAndIsoFractionsAreAccepted() {
        assertThat(Durations.parse(" 2S ")).isEqualTo(Duration.ofSeconds(2));
        assertThat(Durations.parse("10 ms")).isEqualTo(Duration.ofMillis(10));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("0s")).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse(" 0 ")).isEqualTo(Duration.ZERO);
        assertThat(Durations.parse("PT0.5S")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("pt1m")).isEqualTo(Duration.ofMinutes(1));
    }

    /** Whatever the text, a failure is an IllegalArgumentException that says what is accepted (picocli shows it). */
    @ParameterizedTest
    @ValueSource(strings = {"", "1.5s", "-1s", "5", "5 sec", "ms", "99999999999999999999s", "9999999999999999h"})
    void anythingElseIsRefusedSayingWhatIsAccepted(String text) {
        assertThatThrownBy(() -> Durations.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a duration").hasMessageContaining("500ms");
    }

    @Test
    void reportsShowWholeSecondsAsSecondsAndTheRestAsMilliseconds() {
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(Durations.format(Duration.ofMinutes(15))).isEqualTo("900s");
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofMillis(999))).isEqualTo("999ms");
        // What format writes, parse reads back.
        for (Duration duration : new Duration[] {Duration.ofMillis(1), Duration.ofMillis(2500), Duration.ofSeconds(3600)}) {
            assertThat(Durations.parse(Durations.format(duration))).isEqualTo(duration);
        }
    }
}
