package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Meter;
import com.example.threading.testing.Interleavings;
import java.util.List;
import java.util.function.Supplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link TopicPositions} over every interleaving Lincheck's model checker explores (up to its bound of
 * {@value #INVOCATIONS} interleavings): one watched topic; the reader places it, a publisher records a newer id on it
 * and the hub forgets it, each on a thread of its own. A topic forgotten stays forgotten and takes its newest id with
 * it: watched and placed again at 0, its lag is 0. The scenario fails on the class as it was
 * ({@link TopicPositionsCheckThenRecordFixture}): the newest id recorded after a look at the positions, so a forget in
 * between left it behind, and the lag gauge of a topic watched again counted events that were never to come.
 */
class TopicPositionsLincheckTest {

    private static final int INVOCATIONS = 500;
    /** Made once, outside the checked scenarios. */
    private static final Meter GAPS = new Meter();

    /** What the scenario drives: TopicPositions, or a seeded variant of it. */
    interface Positions {
        boolean watch(String topic);

        void forget(String topic);

        boolean watches(String topic);

        Long place(String topic, long numbered, String newestEntry);

        void sawNewest(String topic, long id);

        long lag();
    }

    @Test
    void aForgottenTopicStaysForgottenWithItsNewestId() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> real(new TopicPositions(GAPS))));
    }

    @Test
    void aNewestIdRecordedAfterALookIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS,
                () -> scenario(() -> new TopicPositionsCheckThenRecordFixture())))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("kept the newest id"));
    }

    private static Positions real(TopicPositions positions) {
        return new Positions() {
            @Override
            public boolean watch(String topic) {
                return positions.watch(topic);
            }

            @Override
            public void forget(String topic) {
                positions.forget(topic);
            }

            @Override
            public boolean watches(String topic) {
                return positions.watches(topic);
            }

            @Override
            public Long place(String topic, long numbered, String newestEntry) {
                return positions.place(topic, numbered, newestEntry);
            }

            @Override
            public void sawNewest(String topic, long id) {
                positions.sawNewest(topic, id);
            }

            @Override
            public long lag() {
                return positions.lag();
            }
        };
    }

    /** One interleaving of the placing, the newest id and the forget, then the contract. */
    private static void scenario(Supplier<Positions> made) {
        Positions positions = made.get();
        positions.watch("room");
        Interleavings.onThreads(List.of(
                () -> positions.place("room", 0, ""),
                () -> positions.sawNewest("room", 5),
                () -> positions.forget("room")));
        if (positions.watches("room")) {
            throw new AssertionError("a forgotten topic is watched again");
        }
        positions.watch("room");
        positions.place("room", 0, "");
        if (positions.lag() != 0) {
            throw new AssertionError("a topic watched again kept the newest id of before: lag " + positions.lag());
        }
    }
}
