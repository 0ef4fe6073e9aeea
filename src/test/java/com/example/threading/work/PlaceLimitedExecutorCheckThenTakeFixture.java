package com.example.threading.work;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link PlaceLimitedExecutor} with one seeded bug, kept for {@code PlaceLimitedExecutorLincheckTest} to catch: the
 * place is taken by a check, then an increment, so two submitters can both see the last place free and both take it.
 */
final class PlaceLimitedExecutorCheckThenTakeFixture implements Executor {

    private final Executor executor;
    private final int places;
    private final AtomicInteger taken = new AtomicInteger();

    PlaceLimitedExecutorCheckThenTakeFixture(Executor executor, int places) {
        this.executor = executor;
        this.places = places;
    }

    @Override
    public void execute(Runnable task) {
        if (taken.get() >= places) { // the bug: another submitter may pass this check before the increment below
            throw new RejectedExecutionException("all " + places + " places taken");
        }
        taken.incrementAndGet();
        executor.execute(() -> {
            try {
                task.run();
            } finally {
                taken.decrementAndGet();
            }
        });
    }

    int taken() {
        return taken.get();
    }
}
