package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The spread of a stopping instance's answers: when each is due, and its Retry-After. */
class ShutdownSpreadTest {

    @Test
    void answersAreDueEvenlyOverTheSpreadInWholeSlices() {
        ShutdownSpread spread = new ShutdownSpread(3_000);
        List<Long> due = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            due.add(spread.dueMs(k, 6));
        }
        assertThat(due).containsExactly(0L, 500L, 1_000L, 1_500L, 2_000L, 2_500L);
        assertThat(spread.dueMs(1, 7)).as("428 ms, rounded down to a slice").isEqualTo(400);
    }

    @Test
    void retryAfterRisesFromZeroToTheSpreadsWholeSecondsInAnswerOrder() {
        ShutdownSpread spread = new ShutdownSpread(3_500);
        List<String> retryAfter = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            retryAfter.add(Integer.toString(spread.retryAfter(k, 8)));
        }
        assertThat(retryAfter).containsExactly("0", "0", "1", "1", "2", "2", "3", "3");
    }

    @Test
    void requestsTurnedAwayLaterTakeRetryAfterInTurn() {
        ShutdownSpread spread = new ShutdownSpread(2_000);
        List<String> retryAfter = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            retryAfter.add(Integer.toString(spread.nextRetryAfter()));
        }
        assertThat(retryAfter).containsExactly("0", "1", "2", "0", "1");
    }

    @Test
    void noSpreadAnswersAllAtOnceWithRetryAfterZero() {
        ShutdownSpread spread = new ShutdownSpread(0);
        assertThat(spread.dueMs(999, 1_000)).isZero();
        assertThat(spread.retryAfter(999, 1_000)).isZero();
        assertThat(spread.nextRetryAfter()).isZero();
        assertThatThrownBy(() -> new ShutdownSpread(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
