package com.example.threading.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link CallWindow}: calls held by the test and ended by hand, and a race with real threads. */
class CallWindowTest {

    private final List<Runnable> running = new ArrayList<>();
    private final AtomicInteger drained = new AtomicInteger();

    @Test
    void opensWithWidthCallsAndStartsOneMoreForEachThatEnds() {
        CallWindow window = new CallWindow(5, 2, running::add, drained::incrementAndGet);

        window.open();
        assertThat(running).hasSize(2);

        running.get(0).run();
        assertThat(running).hasSize(3);
        running.get(1).run();
        running.get(2).run();
        assertThat(running).hasSize(5);
        assertThat(window.started()).isEqualTo(5);
        assertThat(drained).hasValue(0);

        running.get(3).run();
        running.get(4).run();
        assertThat(running).hasSize(5);
        assertThat(drained).hasValue(1);
    }

    @Test
    void aCallEndedTwiceCountsOnce() {
        CallWindow window = new CallWindow(3, 1, running::add, drained::incrementAndGet);
        window.open();

        running.get(0).run();
        running.get(0).run();

        assertThat(running).hasSize(2); // one more started, not two
        running.get(1).run();
        running.get(2).run();
        assertThat(drained).hasValue(1);
    }

    @Test
    void stopStartsNothingMoreAndDrainsWhenTheRunningCallsEnd() {
        CallWindow window = new CallWindow(10, 3, running::add, drained::incrementAndGet);
        window.open();

        window.stop();
        running.get(0).run();
        running.get(1).run();
        assertThat(running).hasSize(3);
        assertThat(drained).hasValue(0); // one call still holds its thread: its place is not free

        running.get(2).run();
        assertThat(drained).hasValue(1);
        window.stop();
        assertThat(drained).hasValue(1);
    }

    @Test
    void stoppedBetweenCallsDrainsAtOnce() {
        CallWindow window = new CallWindow(4, 2, running::add, drained::incrementAndGet);
        window.open();
        running.get(0).run();
        running.get(1).run();
        running.get(2).run();
        running.get(3).run();
        assertThat(drained).hasValue(1);

        CallWindow stoppedEarly = new CallWindow(4, 1, ended -> { }, drained::incrementAndGet);
        stoppedEarly.stop(); // the fan-out timed out before its calls were started
        assertThat(drained).hasValue(2);
        stoppedEarly.open();
        assertThat(stoppedEarly.started()).isZero();
        assertThat(drained).hasValue(2);
    }

    @Test
    void callsThatEndWhileBeingStartedDoNotNestTheStack() {
        int calls = 200_000; // a nested start per call would overflow the stack long before this
        AtomicInteger depthAtStart = new AtomicInteger(-1);
        AtomicInteger maxDepth = new AtomicInteger();
        AtomicInteger started = new AtomicInteger();
        CallWindow window = new CallWindow(calls, 1, ended -> {
            if (started.getAndIncrement() % 1_000 == 0) {
                int depth = Thread.currentThread().getStackTrace().length;
                depthAtStart.compareAndSet(-1, depth);
                maxDepth.accumulateAndGet(depth, Math::max);
            }
            ended.run(); // e.g. the pool refused the call: it has ended before start returns
        }, drained::incrementAndGet);

        window.open();

        assertThat(started).hasValue(calls);
        assertThat(maxDepth.get()).isEqualTo(depthAtStart.get());
        assertThat(drained).hasValue(1);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new CallWindow(0, 1, running::add, () -> { })).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new CallWindow(1, 0, running::add, () -> { })).isInstanceOf(IllegalArgumentException.class);
        CallWindow window = new CallWindow(2, 1, running::add, () -> { });
        window.open();
        assertThatThrownBy(window::open).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void callsEndedOnManyThreadsNeverExceedTheWidthAndDrainOnce() throws Exception {
        int calls = 20_000;
        int width = 8;
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            AtomicInteger inFlight = new AtomicInteger();
            AtomicInteger maxInFlight = new AtomicInteger();
            AtomicInteger started = new AtomicInteger();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch done = new CountDownLatch(1);
            CallWindow window = new CallWindow(calls, width, ended -> {
                started.incrementAndGet();
                maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                pool.execute(() -> {
                    try {
                        inFlight.decrementAndGet();
                        ended.run();
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                });
            }, () -> {
                drained.incrementAndGet();
                done.countDown();
            });

            window.open();

            assertThat(done.await(60, TimeUnit.SECONDS)).as("drained").isTrue();
            assertThat(failures).isEmpty();
            assertThat(started).hasValue(calls);
            assertThat(maxInFlight.get()).isBetween(1, width);
            assertThat(drained).hasValue(1);
        } finally {
            pool.shutdownNow();
        }
    }
}
