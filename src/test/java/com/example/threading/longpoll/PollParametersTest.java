package com.example.threading.longpoll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The poll's query: bounds of {@code after} and {@code timeout}, defaults, and the messages a 400 carries. */
class PollParametersTest {

    private static final long DEFAULT_S = 30;
    private static final long MAX_S = 60;

    @Test
    void absentParametersMeanTheNextEventAndTheDefaultTimeout() {
        PollParameters parameters = PollParameters.parse(null, null, DEFAULT_S, MAX_S);

        assertThat(parameters.after()).isNull();
        assertThat(parameters.timeoutMs()).isEqualTo(30_000);
    }

    @Test
    void theBoundsThemselvesAreAccepted() {
        assertThat(PollParameters.parse("0", "1", DEFAULT_S, MAX_S)).isEqualTo(new PollParameters(Hubs.at(0L), 1_000));
        assertThat(PollParameters.parse(Long.toString(Long.MAX_VALUE), "60", DEFAULT_S, MAX_S))
                .isEqualTo(new PollParameters(Hubs.at(Long.MAX_VALUE), 60_000));
        assertThat(PollParameters.parse(" 7 ", " 5 ", DEFAULT_S, MAX_S)).as("surrounding blanks are trimmed")
                .isEqualTo(new PollParameters(Hubs.at(7L), 5_000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-9223372036854775808"})
    void aNegativeCursorIsRefused(String after) {
        assertThatThrownBy(() -> PollParameters.parse(after, null, DEFAULT_S, MAX_S))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("after must be an event id >= 0, was " + after);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "1.5", "1e3", "9223372036854775808", "0x10"})
    void aCursorThatIsNotAWholeNumberIsRefused(String after) {
        assertThatThrownBy(() -> PollParameters.parse(after, null, DEFAULT_S, MAX_S))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("after must be a whole number, was '" + after + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-5", "61", "9223372036854775807"})
    void aTimeoutOutsideOneToMaxIsRefused(String timeout) {
        assertThatThrownBy(() -> PollParameters.parse(null, timeout, DEFAULT_S, MAX_S))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be between 1 and 60 seconds, was " + timeout);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x", "2.5", "30s"})
    void aTimeoutThatIsNotAWholeNumberIsRefused(String timeout) {
        assertThatThrownBy(() -> PollParameters.parse("1", timeout, DEFAULT_S, MAX_S))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must be a whole number, was '" + timeout + "'");
    }
}
