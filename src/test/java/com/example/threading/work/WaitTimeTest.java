package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.ws.rs.BadRequestException;
import java.util.IntSummaryStatistics;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code ms} parameter of every /work pattern: its bounds, the random default, and the JSON 400 for anything else. */
class WaitTimeTest {

    @Test
    void theBoundsAreAccepted() {
        assertThat(WaitTime.parse("0")).isZero();
        assertThat(WaitTime.parse("1")).isEqualTo(1);
        assertThat(WaitTime.parse("60000")).isEqualTo(WaitTime.MAX_MS);
    }

    @Test
    void anAbsentWaitIsRandomWithinZeroToTwoSeconds() {
        IntSummaryStatistics waits = IntStream.range(0, 5_000).map(i -> WaitTime.parse(null)).summaryStatistics();

        assertThat(waits.getMin()).isGreaterThanOrEqualTo(0);
        assertThat(waits.getMax()).isLessThanOrEqualTo(WaitTime.RANDOM_MAX_MS);
        // 5,000 uniform draws from 0..2000 spread over the range (the chance that these bounds fail is below 1e-100).
        assertThat(waits.getMin()).isLessThan(100);
        assertThat(waits.getMax()).isGreaterThan(1_900);
        assertThat(IntStream.range(0, 100).map(i -> WaitTime.parse(null)).distinct().count()).isGreaterThan(50);
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "60001", "2147483648", "abc", "1.5", "", " 5", "5ms"})
    void anythingElseIsAJson400NamingTheRangeAndTheValue(String ms) {
        BadRequestException refused = catchThrowableOfType(BadRequestException.class, () -> WaitTime.parse(ms));

        assertThat(refused).as("ms=%s", ms).isNotNull();
        assertThat(refused.getResponse().getStatus()).isEqualTo(400);
        assertThat(refused.getResponse().getMediaType()).hasToString("application/json");
        ErrorMessage body = (ErrorMessage) refused.getResponse().getEntity();
        assertThat(body.getCode()).isEqualTo(400);
        assertThat(body.getMessage()).contains("0..60000").contains("'" + ms + "'");
    }
}
