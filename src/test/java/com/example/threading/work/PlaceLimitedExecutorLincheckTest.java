package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.IntSupplier;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;

/**
 * {@link PlaceLimitedExecutor}'s contract over every interleaving Lincheck's model checker explores (up to its bound
 * of {@value #INVOCATIONS} interleavings): three submitters, two places, an executor that runs each task on a thread
 * of its own, each task holding its place until all three have submitted; never more than two are admitted or run at
 * once, every place comes back (none taken at the end), and each submit is admitted or refused, never both. Then the same with an executor that runs the task and then refuses
 * it (a caller-runs pool at its limit): its place comes back once, not twice. The scenario fails on a seeded bug, the
 * place taken by a check and then an increment ({@link PlaceLimitedExecutorCheckThenTakeFixture}).
 */
class PlaceLimitedExecutorLincheckTest {

    private static final int INVOCATIONS = 500;
    private static final int SUBMITTERS = 3;
    private static final int PLACES = 2;

    @Test
    void atMostItsPlacesRunAndEveryPlaceComesBack() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            scenario(limited(executor -> new PlaceLimitedExecutor(executor, PLACES)));
        });
    }

    @Test
    void aTaskTheExecutorRunsAndThenRefusesGivesItsPlaceBackOnce() {
        Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            Executor runsThenRefuses = task -> {
                task.run();
                throw new RejectedExecutionException("at its limit after running it");
            };
            PlaceLimitedExecutor executor = new PlaceLimitedExecutor(runsThenRefuses, PLACES);
            submitConcurrently(executor, () -> { });
            if (executor.taken() != 0) {
                throw new AssertionError(executor.taken() + " places still taken (negative: given back twice)");
            }
        });
    }

    @Test
    void aCheckThenTakeInsteadOfTheSemaphoreIsCaught() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(INVOCATIONS, () -> {
            scenario(limited(executor -> new PlaceLimitedExecutorCheckThenTakeFixture(executor, PLACES)));
        }))
                .isInstanceOf(LincheckAssertionError.class)
                .satisfies(caught -> assertThat(caught.getMessage()).containsAnyOf("tasks admitted at once", "tasks running at once"));
    }

    /** An executor under test over one that runs each task on a new thread, which the scenario joins. */
    private record Limited(Executor executor, IntSupplier taken, List<Thread> workers) {
    }

    private static Limited limited(Function<Executor, Executor> limit) {
        List<Thread> workers = new ArrayList<>();
        Executor threadPerTask = task -> {
            Thread worker = new Thread(task);
            synchronized (workers) {
                workers.add(worker);
            }
            worker.start();
        };
        Executor executor = limit.apply(threadPerTask);
        IntSupplier taken = executor instanceof PlaceLimitedExecutor real ? real::taken
                : ((PlaceLimitedExecutorCheckThenTakeFixture) executor)::taken;
        return new Limited(executor, taken, workers);
    }

    /** Three submitters, each one task that counts the tasks running with it; then the contract is checked. */
    private static void scenario(Limited limited) {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger ran = new AtomicInteger();
        AtomicReference<String> overlap = new AtomicReference<>();
        CountDownLatch submitted = new CountDownLatch(1);
        int refused = submitConcurrently(limited.executor(), () -> {
            awaitUninterruptibly(submitted); // every admitted task holds its place until all three have submitted
            if (running.incrementAndGet() > PLACES) {
                overlap.compareAndSet(null, running.get() + " tasks running at once, with " + PLACES + " places");
            }
            ran.incrementAndGet();
            running.decrementAndGet();
        });
        if (SUBMITTERS - refused > PLACES) {
            throw new AssertionError((SUBMITTERS - refused) + " tasks admitted at once, with " + PLACES + " places");
        }
        submitted.countDown();
        List<Thread> workers;
        synchronized (limited.workers()) { // complete: every worker was started inside a submit, and they have returned
            workers = List.copyOf(limited.workers());
        }
        workers.forEach(PlaceLimitedExecutorLincheckTest::join);
        if (overlap.get() != null) {
            throw new AssertionError(overlap.get());
        }
        if (ran.get() + refused != SUBMITTERS) {
            throw new AssertionError(ran.get() + " tasks ran and " + refused + " were refused, of " + SUBMITTERS + " submitted");
        }
        if (limited.taken().getAsInt() != 0) {
            throw new AssertionError(limited.taken().getAsInt() + " places still taken after every task ended");
        }
    }

    /** Each of {@link #SUBMITTERS} threads submits one {@code task}; the number refused. */
    private static int submitConcurrently(Executor executor, Runnable task) {
        AtomicInteger refused = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> submitters = new ArrayList<>();
        for (int s = 0; s < SUBMITTERS; s++) {
            submitters.add(new Thread(() -> {
                try {
                    executor.execute(task);
                } catch (RejectedExecutionException e) {
                    refused.incrementAndGet();
                } catch (Throwable thrown) {
                    failure.compareAndSet(null, thrown);
                }
            }));
        }
        submitters.forEach(Thread::start);
        submitters.forEach(PlaceLimitedExecutorLincheckTest::join);
        if (failure.get() != null) {
            throw new AssertionError("a submit failed", failure.get());
        }
        return refused.get();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException interrupted) {
            throw new AssertionError(interrupted);
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException interrupted) {
            throw new AssertionError(interrupted);
        }
    }
}
