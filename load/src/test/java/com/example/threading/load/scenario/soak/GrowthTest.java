package com.example.threading.load.scenario.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class GrowthTest {

    @Test
    void aSeriesThatClimbsEveryMinuteIsGrowing() {
        // Minute 1 (start-up) is left out; then +5 MB a minute over 9 minutes: 40 MB projected.
        Growth growth = Growth.of(List.of(300.0, 50.0, 55.0, 60.0, 65.0, 70.0, 75.0, 80.0, 85.0, 90.0), 8);

        assertThat(growth.verdict()).isEqualTo("growing");
        assertThat(growth.slopePerMinute()).isEqualTo(5.0);
        assertThat(growth.projected()).isEqualTo(40.0);
        assertThat(growth.first()).isEqualTo(50.0);
        assertThat(growth.last()).isEqualTo(90.0);
    }

    @Test
    void noiseAroundALevelIsFlatAndSoIsGrowthBelowTheSlack() {
        assertThat(Growth.of(List.of(10.0, 52.0, 48.0, 51.0, 49.0, 50.0, 53.0, 47.0), 8).verdict()).isEqualTo("flat");
        // +1 thread a minute over 5 minutes is within a slack of 10 threads.
        assertThat(Growth.of(List.of(0.0, 200.0, 201.0, 202.0, 203.0, 204.0, 205.0), 10).verdict()).isEqualTo("flat");
    }

    @Test
    void growthBelowATenthOfTheMeanIsFlatEvenAboveTheSlack() {
        // +12 files over the run on a mean of ~1,000: above a slack of 10, below 10 % of the mean.
        assertThat(Growth.of(List.of(0.0, 1000.0, 1003.0, 1006.0, 1009.0, 1012.0), 10).verdict()).isEqualTo("flat");
    }

    @Test
    void tooFewMinutesOrUnmeasuredOnesGiveNoVerdict() {
        assertThat(Growth.of(List.of(1.0, 2.0, 3.0), 0).verdict()).isEqualTo("–");
        assertThat(Growth.of(List.of(1.0, Double.NaN, 3.0, Double.NaN, 5.0), 0).verdict()).isEqualTo("–");
    }
}
