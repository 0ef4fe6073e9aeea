package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * PlaceLimitedExecutor on real threads: submitters released together by a start latch, many rounds. The bound is exact
 * (never more admitted than places, and with every admitted task held, exactly {@code places} admitted), every
 * refusal is reported to the submitter, and every place comes back exactly once, whatever way its task ends.
 */
class PlaceLimitedExecutorTest {

    private static final int PLACES = 5;
    private static final int SUBMITTERS = 8;
    private static final int SUBMITS_EACH = 10;

    private final ExecutorService workers = Executors.newCachedThreadPool();
    private final ExecutorService submitters = Executors.newFixedThreadPool(SUBMITTERS);

    @AfterEach
    void stopThreads() {
        workers.shutdownNow();
        submitters.shutdownNow();
    }

    @Test
    void withEveryTaskHeldExactlyPlacesAreAdmittedAndTheRestRefusedRoundAfterRound() throws Exception {
        PlaceLimitedExecutor admission = new PlaceLimitedExecutor(workers, PLACES);
        for (int round = 0; round < 200; round++) {
            CountDownLatch gate = new CountDownLatch(1);
            AtomicInteger running = new AtomicInteger();
            int[] outcome = submitAtOnce(admission, () -> {
                running.incrementAndGet();
                await(gate);
                running.decrementAndGet();
            });

            assertThat(outcome[0]).as("admitted in round %d", round).isEqualTo(PLACES);
            assertThat(outcome[1]).as("refused in round %d", round).isEqualTo(SUBMITTERS * SUBMITS_EACH - PLACES);
            assertThat(admission.taken()).isEqualTo(PLACES);
            Await.until(() -> running.get() == PLACES, Duration.ofSeconds(10), "every admitted task running");

            gate.countDown();
            Await.until(() -> admission.taken() == 0, Duration.ofSeconds(10), "every place given back");
        }
    }

    @Test
    void underChurnNoMoreThanPlacesRunAtOnceAndEverySubmitIsAdmittedOrRefused() throws Exception {
        PlaceLimitedExecutor admission = new PlaceLimitedExecutor(workers, PLACES);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostRunning = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        int admitted = 0;
        for (int round = 0; round < 200; round++) {
            int[] outcome = submitAtOnce(admission, () -> {
                mostRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                Thread.yield();
                running.decrementAndGet();
                finished.incrementAndGet();
            });
            assertThat(outcome[0] + outcome[1]).isEqualTo(SUBMITTERS * SUBMITS_EACH);
            admitted += outcome[0];
        }
        int expectedFinished = admitted;
        Await.until(() -> finished.get() == expectedFinished, Duration.ofSeconds(10), "every admitted task finished");
        Await.until(() -> admission.taken() == 0, Duration.ofSeconds(10), "every place given back");
        assertThat(mostRunning.get()).isBetween(1, PLACES);
    }

    @Test
    void aPlaceComesBackWhenTheExecutorRefusesOrTheTaskFails() {
        PlaceLimitedExecutor refusing = new PlaceLimitedExecutor(task -> {
            throw new RejectedExecutionException("stopping");
        }, PLACES);
        for (int i = 0; i < 2 * PLACES; i++) {
            assertThatThrownBy(() -> refusing.execute(() -> { })).isInstanceOf(RejectedExecutionException.class)
                    .hasMessage("stopping");
        }
        assertThat(refusing.taken()).isZero();

        PlaceLimitedExecutor callerRuns = new PlaceLimitedExecutor(Runnable::run, PLACES);
        assertThatThrownBy(() -> callerRuns.execute(() -> {
            throw new IllegalStateException("task failed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(callerRuns.taken()).isZero();
    }

    @Test
    void aPlaceComesBackOnceEvenWhenACallerRunsTaskThrowsRejection() {
        // A caller-runs executor runs the task inside execute(): the task's own RejectedExecutionException then
        // leaves execute() too, and both the task's and the refusal's way out try to give the place back.
        PlaceLimitedExecutor callerRuns = new PlaceLimitedExecutor(Runnable::run, PLACES);
        assertThatThrownBy(() -> callerRuns.execute(() -> {
            throw new RejectedExecutionException("from the task");
        })).isInstanceOf(RejectedExecutionException.class);

        assertThat(callerRuns.taken()).as("a place given back twice would read -1 and admit one task too many").isZero();
    }

    /**
     * {@link #SUBMITTERS} threads released together each submit {@link #SUBMITS_EACH} copies of {@code task};
     * returns {admitted, refused}.
     */
    private int[] submitAtOnce(PlaceLimitedExecutor admission, Runnable task) throws Exception {
        CountDownLatch ready = new CountDownLatch(SUBMITTERS);
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger admitted = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (int s = 0; s < SUBMITTERS; s++) {
            done.add(submitters.submit(() -> {
                ready.countDown();
                await(start);
                for (int i = 0; i < SUBMITS_EACH; i++) {
                    try {
                        admission.execute(task);
                        admitted.incrementAndGet();
                    } catch (RejectedExecutionException e) {
                        refused.incrementAndGet();
                    }
                }
            }));
        }
        assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
        start.countDown();
        for (Future<?> submitter : done) {
            submitter.get(10, TimeUnit.SECONDS);
        }
        return new int[] {admitted.get(), refused.get()};
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released within 30 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
