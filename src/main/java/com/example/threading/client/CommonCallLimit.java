package com.example.threading.client;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The cap on the {@code via=common} pitfall: at most {@code maxCalls} of its calls in flight at once, over all
 * fan-outs. A fan-out takes all of its {@code n} places up front or none ({@link #tryAdmit}), so it either runs as
 * the pitfall runs (every call at once) or is refused whole. The calls still go to the JDK's default async
 * executor, the one {@code supplyAsync} without an executor uses ({@link CompletableFuture#defaultExecutor()}: the
 * ForkJoin common pool, or a new thread per task when its parallelism is below 2, e.g. JDK 17 on 2 CPUs);
 * {@link Place#executor} only counts. Without the cap one {@code /fanout?n=1000&via=common} starts a thread per call on
 * such a JDK (docs/client.md, "The pitfall: supplyAsync without an executor", its paragraph "The cap", has the measurement).
 *
 * <p>Thread-safety: every method may be called from any thread. A place is taken by {@link #tryAdmit} on a Jetty
 * worker, before anything is submitted, and given back exactly once per admitted call ({@link Place}): by the call
 * when it ends, before its outcome is reported; by the wrapper task when it ends on the default executor's thread
 * without having run the call (the fan-out cancelled it); or at once, on the submitting thread, if that executor
 * refuses the task. {@link CallPlaces} orders each give before the take that reuses it. {@code CommonCallLimitTest}
 * checks it on the JDK's default executor: calls that end, a task cancelled before it runs, and a place given back
 * before the outcome, once; {@code CommonCallLimitLincheckTest} over the interleavings of a place given back twice at
 * once beside new admissions.
 */
final class CommonCallLimit {

    private final CallPlaces places;
    private final Executor defaultExecutor = new CompletableFuture<Void>().defaultExecutor();

    CommonCallLimit(int maxCalls) {
        this.places = new CallPlaces(maxCalls);
    }

    /** Most calls in flight at once. */
    int maxCalls() {
        return places.capacity();
    }

    /** Takes {@code n} places, all or none; false when fewer are free. */
    boolean tryAdmit(int n) {
        return places.tryTake(n);
    }

    /** Calls admitted and not yet ended. */
    int inFlight() {
        return places.inUse();
    }

    /** The place of one call {@link #tryAdmit} admitted, to be given back once. */
    Place place() {
        return new Place();
    }

    /**
     * One admitted call's place, given back once: by the call itself ({@link #giveBack}, before its outcome is
     * reported, so that the fan-out's answer never goes out with its places still taken), or by the task that was to
     * run it when it ends without running it (the fan-out cancelled it), or when the default executor refuses it.
     */
    final class Place {

        private final AtomicBoolean given = new AtomicBoolean();

        /** Gives the place back, the first time only. */
        void giveBack() {
            if (given.compareAndSet(false, true)) {
                places.give(1);
            }
        }

        /** The JDK's default async executor, for this call's one task; the place comes back when the task ends at the latest. */
        Executor executor() {
            return task -> {
                try {
                    defaultExecutor.execute(() -> {
                        try {
                            task.run();
                        } finally {
                            giveBack();
                        }
                    });
                } catch (RejectedExecutionException e) {
                    giveBack();
                    throw e;
                }
            };
        }
    }
}
