package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            threads.add(new Thread(() -> {
                try {
                    calls.incrementAndGet();
                    runner.run(body);
                } catch (Throwable thrown) {
                    failure.compareAndSet(null, thrown);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException interrupted) {
                throw new AssertionError(interrupted);
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a run failed", failure.get());
        }
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
