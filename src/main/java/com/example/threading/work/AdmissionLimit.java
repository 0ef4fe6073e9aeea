package com.example.threading.work;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;

/**
 * Admits at most {@code places} tasks (running plus waiting) into an executor and refuses the rest at once.
 *
 * <p>Why not just a {@code ThreadPoolExecutor} with a bounded queue: once all its threads exist, every task goes
 * through the queue, and a burst of submits fills it faster than idle workers take from it, so the pool refuses
 * work while threads sit idle (a 50 + 50 pool refused some of 100 simultaneous requests from the second burst
 * on). Counting admissions here makes the bound exact: {@code threads + queueCapacity} places, whatever the
 * timing; the executor's own queue is sized to hold every admitted task and so never refuses.
 *
 * <p>Thread-safety: {@link #execute} may be called from any thread. A place is taken before the task is handed
 * to the executor and given back exactly once: when the task ends (normally, cancelled or failed), or at once
 * if the executor refuses it. The semaphore's release happens-before the acquire that reuses the place, and at
 * no instant are more than {@code places} tasks admitted and not yet finished.
 */
final class AdmissionLimit implements Executor {

    private final Executor executor;
    private final int places;
    private final Semaphore freePlaces;

    AdmissionLimit(Executor executor, int places) {
        this.executor = executor;
        this.places = places;
        this.freePlaces = new Semaphore(places);
    }

    @Override
    public void execute(Runnable task) {
        if (!freePlaces.tryAcquire()) {
            throw new RejectedExecutionException("all " + places + " places taken");
        }
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } finally {
                    freePlaces.release();
                }
            });
        } catch (RejectedExecutionException e) {
            freePlaces.release();
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
}
