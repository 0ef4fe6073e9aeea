package com.example.threading.work;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Admits at most {@code places} tasks (running plus waiting) into an executor and refuses the rest at once.
 *
 * <p>Why not just a {@code ThreadPoolExecutor} with a bounded queue: once all its threads exist, every task goes
 * through the queue, and a burst of submits fills it faster than idle workers take from it, so the pool refuses
 * work while threads sit idle (docs/work.md has the burst that showed it). Counting admissions here makes the bound
 * exact: {@code threads + queueCapacity} places, whatever the
 * timing; the executor's own queue is sized to hold every admitted task and so never refuses.
 *
 * <p>Thread-safety: {@link #execute} may be called from any thread, any number at once, and never waits. A place is
 * taken before the task is handed to the executor and given back exactly once, by a compare-and-set per admitted task:
 * when the task ends on its executor thread (normally, cancelled or failed), or at once, on the submitting thread, if
 * the executor refuses it. The semaphore's release happens-before the acquire that reuses the place, and at no instant
 * are more than {@code places} tasks admitted and not yet finished. {@link #taken} is a snapshot.
 * {@code PlaceLimitedExecutorTest} checks it on real threads, {@code PlaceLimitedExecutorLincheckTest} over the
 * interleavings of three submitters racing for two places.
 */
final class PlaceLimitedExecutor implements Executor {

    private final Executor executor;
    private final int places;
    private final Semaphore freePlaces;

    PlaceLimitedExecutor(Executor executor, int places) {
        this.executor = executor;
        this.places = places;
        this.freePlaces = new Semaphore(places);
    }

    @Override
    public void execute(Runnable task) {
        if (!freePlaces.tryAcquire()) {
            throw new RejectedExecutionException("all " + places + " places taken");
        }
        Admitted admitted = new Admitted(task);
        try {
            executor.execute(admitted);
        } catch (RejectedExecutionException e) {
            admitted.givePlaceBack();
            throw e;
        }
    }

    /** Places admitted and not yet finished (running or waiting). */
    int taken() {
        return places - freePlaces.availablePermits();
    }

    /** Most tasks admitted at once. */
    int places() {
        return places;
    }

    /**
     * An admitted task holding one place, which it gives back exactly once: when it ends, or when the executor
     * refuses it. Both can happen to one task: a caller-runs executor runs it inside {@code execute}, and a
     * {@link RejectedExecutionException} thrown by the task then also leaves {@code execute}.
     */
    private final class Admitted extends AtomicBoolean implements Runnable {
        private final Runnable task;

        Admitted(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            try {
                task.run();
            } finally {
                givePlaceBack();
            }
        }

        void givePlaceBack() {
            if (compareAndSet(false, true)) {
                freePlaces.release();
            }
        }
    }
}
