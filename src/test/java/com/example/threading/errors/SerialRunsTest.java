package com.example.threading.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link SerialRuns}: runs never overlap, a call made during a run is run after it by the running caller, none is lost. */
class SerialRunsTest {

    private final SerialRuns runs = new SerialRuns();

    @Test
    void aCallDuringARunReturnsAtOnceAndTheRunningCallerRunsTheBodyOnceMore() throws Exception {
        CountDownLatch firstRunEntered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> ranOn = new ArrayList<>();
        AtomicInteger count = new AtomicInteger();
        Runnable body = () -> {
            ranOn.add(Thread.currentThread().getName());
            if (count.incrementAndGet() == 1) {
                firstRunEntered.countDown();
                await(release);
            }
        };
        Thread first = new Thread(() -> runs.run(body), "first");
        first.start();
        assertThat(firstRunEntered.await(10, TimeUnit.SECONDS)).isTrue();

        runs.run(body); // a second caller, while the first runs: returns without running
        runs.run(body); // a third: folded into the same one more run
        assertThat(count).hasValue(1);

        release.countDown();
        first.join(10_000);
        assertThat(ranOn).containsExactly("first", "first");
    }

    @Test
    void runsOfManyThreadsNeverOverlapAndTheLastCallIsFollowedByARun() throws Exception {
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger seenByLastRun = new AtomicInteger();
        Runnable body = () -> {
            if (inside.incrementAndGet() > 1) {
                overlaps.incrementAndGet();
            }
            seenByLastRun.set(calls.get());
            Thread.onSpinWait();
            inside.decrementAndGet();
        };
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    calls.incrementAndGet();
                    runs.run(body);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(60_000);
        }
        assertThat(overlaps).hasValue(0);
        // Every call was counted before it asked for a run, so the run after the last call saw them all.
        assertThat(seenByLastRun).hasValue(80_000);
    }

    @Test
    void aFailingRunLetsTheNextCallRun() {
        assertThatThrownBy(() -> runs.run(() -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        AtomicInteger ran = new AtomicInteger();
        runs.run(ran::incrementAndGet);
        assertThat(ran).hasValue(1);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
