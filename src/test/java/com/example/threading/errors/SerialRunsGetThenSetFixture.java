package com.example.threading.errors;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link SerialRuns} with one seeded bug, kept for {@code SerialRunsLincheckTest} to catch: the atomic update of
 * {@code asked} split into a read and a write, so two callers can both see it idle and run the body at once.
 */
final class SerialRunsGetThenSetFixture {

    private final AtomicInteger asked = new AtomicInteger();

    void run(Runnable body) {
        int before = asked.get();
        asked.set(Math.min(before + 1, 2)); // the bug: another caller may read the same value in between
        if (before > 0) {
            return;
        }
        boolean again;
        do {
            body.run();
            again = asked.decrementAndGet() > 0;
        } while (again);
    }
}
