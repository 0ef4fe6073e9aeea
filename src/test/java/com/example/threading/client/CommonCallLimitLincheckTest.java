package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Interleavings;
import java.util.List;
import java.util.function.Supplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link CommonCallLimit}'s places over every interleaving Lincheck's model checker explores (up to its bound of
 * {@value #INVOCATIONS} interleavings): a cap of two, a fan-out of two admitted, and four threads. The first call's
 * place is given back twice at once (the call ending, and the task that ran it ending on the default executor's
 * thread); the second call's once, after which its thread admits a fan-out of one and gives its place back; a fourth
 * thread asks for a fan-out of two while that goes on. Never fewer than none nor more than two calls in flight; at the
 * end none is, and exactly two places are free. The scenario fails on a seeded bug: a place that looks whether it was
 * given back, then marks it ({@link CommonCallLimitCheckThenGiveFixture}).
 *
 * <p>What it does not cover: the hand-over to the JDK's default executor ({@link CommonCallLimit.Place#executor}),
 * whose threads the model checker does not run; {@code CommonCallLimitTest} checks that path on the real executor.
 */
class CommonCallLimitLincheckTest {

    private static final int INVOCATIONS = 500;

    /** What the scenario drives: CommonCallLimit, or a seeded variant of it. */
    interface Limit {
        boolean tryAdmit(int n);

        /** One admitted call's place: running it gives the place back. */
        Runnable place();

        int inFlight();
    }

    @Test
    void neverMoreThanTheCapAndEachPlaceBackOnce() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new Real(new CommonCallLimit(2))));
    }

    @Test
    void aPlaceThatChecksThenMarksIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new CommonCallLimitCheckThenGiveFixture(2))))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).contains("in flight"));
    }

    /** The real limit, as the scenario drives it. */
    private static final class Real implements Limit {
        private final CommonCallLimit limit;

        Real(CommonCallLimit limit) {
            this.limit = limit;
        }

        @Override
        public boolean tryAdmit(int n) {
            return limit.tryAdmit(n);
        }

        @Override
        public Runnable place() {
            CommonCallLimit.Place place = limit.place();
            return place::giveBack;
        }

        @Override
        public int inFlight() {
            return limit.inFlight();
        }
    }

    /** One interleaving of the three threads, then the contract. */
    private static void scenario(Supplier<Limit> made) {
        Limit limit = made.get();
        if (!limit.tryAdmit(2)) {
            throw new AssertionError("a fan-out of two refused by an idle cap of two");
        }
        Runnable first = limit.place();
        Runnable second = limit.place();
        Interleavings.onThreads(List.of(
                first, // the call ends
                first, // the task that ran it ends: already given, nothing more
                () -> {
                    second.run();
                    within(limit);
                    if (limit.tryAdmit(1)) {
                        within(limit);
                        limit.place().run();
                    }
                },
                () -> {
                    if (limit.tryAdmit(2)) {
                        within(limit);
                        Runnable one = limit.place();
                        Runnable two = limit.place();
                        one.run();
                        two.run();
                    }
                    within(limit);
                }));
        if (limit.inFlight() != 0) {
            throw new AssertionError(limit.inFlight() + " calls in flight after every call ended");
        }
        if (!limit.tryAdmit(2) || limit.tryAdmit(1)) {
            throw new AssertionError("not exactly two places free at the end, with a cap of two; in flight "
                    + limit.inFlight());
        }
    }

    private static void within(Limit limit) {
        int now = limit.inFlight();
        if (now < 0 || now > 2) {
            throw new AssertionError(now + " calls in flight with a cap of two");
        }
    }
}
