package com.example.threading.errors;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a body one call at a time without blocking a caller: a call that arrives while the body runs returns at once,
 * and the running caller runs the body once more when it is done (calls that arrive meanwhile are folded into that
 * one run, as wake-ups are).
 *
 * <p>Thread-safety: {@link #run} may be called from any thread. Two runs of the body never overlap, each run
 * happens-before the next, and a call that returned without running is followed by a run that starts after it.
 * Checked by {@code SerialRunsTest} on real threads, and by {@code SerialRunsLincheckTest} over the interleavings of
 * three callers that Lincheck's model checker explores, where a seeded bug (the atomic update split in two) fails.
 */
final class SerialRuns {

    /** 0: idle; 1: a run in progress; 2: a run in progress and another asked for. */
    private final AtomicInteger asked = new AtomicInteger();

    /** Runs {@code body} now, or has the caller running it now run it once more. */
    void run(Runnable body) {
        if (asked.getAndUpdate(n -> Math.min(n + 1, 2)) > 0) {
            return;
        }
        boolean again;
        do {
            try {
                body.run();
            } catch (RuntimeException | Error failure) {
                asked.set(0);
                throw failure;
            }
            again = asked.decrementAndGet() > 0;
        } while (again);
    }
}
