package com.example.threading.events.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.hub.Hubs;
import com.example.threading.events.stream.TopicNames;
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

    @Test
    void anEpochGoesWithTheCursorOfItsTopic() {
        assertThat(parse(null, "4", "k1x-2").topics()).containsExactly(new TopicCursor(TopicNames.DEFAULT, 4L, "k1x-2"));
        assertThat(parse(new String[] {"room"}, "4", "k1x-2").topics()).containsExactly(new TopicCursor("room", 4L, "k1x-2"));
        assertThat(parse(new String[] {"a:3:e-1", "b:0", "c"}, null, null).topics()).containsExactly(
                new TopicCursor("a", 3L, "e-1"), new TopicCursor("b", 0L, null), new TopicCursor("c", null, null));
    }

    @Test
    void anEpochIsRefusedWhereItHasNoCursorToBelongToOrIsMalformed() {
        assertThatThrownBy(() -> parse(new String[] {"a:1", "b:2"}, null, "e1"))
                .hasMessageContaining("with several topics, give each its own cursor");
        assertThatThrownBy(() -> parse(new String[] {"a:1:e1"}, null, "e2")).hasMessageContaining("not both");
        assertThatThrownBy(() -> parse(null, "1", "no spaces")).hasMessage(
                "epoch must be 1 to 32 letters, digits or '-', as an answer's epoch");
        assertThatThrownBy(() -> parse(new String[] {"a:1:"}, null, null)).hasMessageStartingWith("the epoch of topic a must be");
        assertThatThrownBy(() -> parse(null, "1", "x".repeat(33))).isInstanceOf(IllegalArgumentException.class);
    }

    private static PollParameters parse(String[] topics, String after, String epoch) {
        return PollParameters.parse(topics, after, epoch, null, DEFAULT_S, MAX_S, 16);
    }
}
