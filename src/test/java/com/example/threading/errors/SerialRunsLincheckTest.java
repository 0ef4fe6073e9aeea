package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Interleavings;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link SerialRuns}' contract over every interleaving Lincheck's model checker explores (sequential consistency, up
 * to its bound of {@value #INVOCATIONS} interleavings): three threads each ask for one run; two runs never overlap, and
 * the last run starts after the last call (no call is lost). The same scenario fails on a seeded bug: the atomic
 * update turned into a read, then a write ({@link SerialRunsGetThenSetFixture}), which lets two callers run at once
 * or a call go unserved, whichever interleaving the checker meets first.
 */
class SerialRunsLincheckTest {

    private static final int INVOCATIONS = 500;
    private static final int THREADS = 3;

    @Test
    void noTwoRunsOverlapAndNoCallIsLost() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> scenario(() -> new SerialRuns()::run));
    }

    @Test
    void aReadThenWriteInsteadOfTheAtomicUpdateIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS,
                () -> scenario(() -> new SerialRunsGetThenSetFixture()::run)))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).containsAnyOf("two runs at once", "a call was lost"));
    }

    /** One interleaving: {@link #THREADS} threads each ask {@code runs} for one run, then the contract is checked. */
    private static void scenario(Supplier<Runner> runs) {
        Runner runner = runs.get();
        AtomicInteger calls = new AtomicInteger();
        int[] inside = {0};
        int[] lastSeenAtStart = {0};
        Runnable body = () -> {
            if (inside[0]++ != 0) {
                throw new AssertionError("two runs at once");
            }
            lastSeenAtStart[0] = calls.get();
            inside[0]--;
        };
        Interleavings.onThreads(Collections.nCopies(THREADS, () -> {
            calls.incrementAndGet();
            runner.run(body);
        }));
        if (lastSeenAtStart[0] != THREADS) {
            throw new AssertionError("a call was lost: the last run started after " + lastSeenAtStart[0] + " of "
                    + THREADS + " calls");
        }
    }

    /** What the scenario asks of a one-at-a-time runner. */
    @FunctionalInterface
    interface Runner {
        void run(Runnable body);
    }
}
