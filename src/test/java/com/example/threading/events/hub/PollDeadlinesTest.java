package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PollDeadlinesTest {

    private static final ParkedPoll.ParkingLot NOWHERE = new ParkedPoll.ParkingLot() {
        @Override
        public void timedOut(ParkedPoll poll) {
        }

        @Override
        public void failed(ParkedPoll poll, Throwable failure) {
        }

        @Override
        public void completed(ParkedPoll poll) {
        }
    };

    private final AtomicLong nanos = new AtomicLong(TimeUnit.SECONDS.toNanos(1_000));

    @Test
    void aDeadlineIsNeverEarlyAndAtMostOneTickLate() {
        PollDeadlines deadlines = new PollDeadlines(100, nanos::get);
        ParkedPoll poll = poll();
        deadlines.add(poll, 250);
        List<ParkedPoll> expired = new ArrayList<>();

        advanceMs(249);
        assertThat(deadlines.expireDue(expired::add)).isZero();
        advanceMs(50); // 299 ms: the deadline (250) is rounded up to the slot at 300
        assertThat(deadlines.expireDue(expired::add)).isZero();
        advanceMs(1);
        assertThat(deadlines.expireDue(expired::add)).isEqualTo(1);
        assertThat(expired).containsExactly(poll);
        assertThat(deadlines.expireDue(expired::add)).as("handed over once").isZero();
    }

    @Test
    void aRemovedPollNeverExpiresAndOthersOfItsTickStillDo() {
        PollDeadlines deadlines = new PollDeadlines(100, nanos::get);
        ParkedPoll answered = poll();
        ParkedPoll waiting = poll();
        deadlines.add(answered, 100);
        deadlines.add(waiting, 100);
        deadlines.remove(answered);
        deadlines.remove(poll()); // never added: harmless
        List<ParkedPoll> expired = new ArrayList<>();

        advanceMs(1_000);

        assertThat(deadlines.expireDue(expired::add)).isEqualTo(1);
        assertThat(expired).containsExactly(waiting);
    }

    @Test
    void oneFailingExpiryDoesNotStopTheOthers() {
        PollDeadlines deadlines = new PollDeadlines(100, nanos::get);
        ParkedPoll failing = poll();
        ParkedPoll fine = poll();
        deadlines.add(failing, 10);
        deadlines.add(fine, 10);
        List<ParkedPoll> expired = new ArrayList<>();
        advanceMs(200);

        int count = deadlines.expireDue(poll -> {
            if (poll == failing) {
                throw new IllegalStateException("completed meanwhile");
            }
            expired.add(poll);
        });

        assertThat(count).isEqualTo(1);
        assertThat(expired).containsExactly(fine);
    }

    @Test
    void aTickOfZeroIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PollDeadlines(0, nanos::get))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Adders race the sweep on the real clock, with deadlines of 0-20 ms so that adds keep landing on the slots being
     * swept: every poll that is not removed expires (at least once: the race may hand one over twice), none is lost.
     */
    @Test
    void underConcurrentAddsAndSweepsNoDeadlineIsLost() throws Exception {
        PollDeadlines deadlines = new PollDeadlines(1, System::nanoTime);
        Set<ParkedPoll> expired = ConcurrentHashMap.newKeySet();
        Set<ParkedPoll> kept = ConcurrentHashMap.newKeySet();
        AtomicBoolean adding = new AtomicBoolean(true);
        ExecutorService threads = Executors.newFixedThreadPool(3);
        try {
            Future<?> sweeper = threads.submit(() -> {
                while (adding.get()) {
                    deadlines.expireDue(expired::add);
                    Thread.yield(); // three threads on two cores: a sweeper that only spins starves the adders (28 s then)
                }
                return null;
            });
            List<Future<?>> adders = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                Random random = new Random(20261201L + t); // the same deadlines every run
                adders.add(threads.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        ParkedPoll poll = poll();
                        deadlines.add(poll, random.nextInt(20));
                        if (i % 4 == 0) {
                            deadlines.remove(poll);
                        } else {
                            kept.add(poll);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> adder : adders) {
                adder.get(60, TimeUnit.SECONDS);
            }
            adding.set(false);
            sweeper.get(10, TimeUnit.SECONDS);
            Thread.sleep(30);
            deadlines.expireDue(expired::add);
        } finally {
            threads.shutdownNow();
        }

        assertThat(kept).hasSize(30_000);
        assertThat(expired).containsAll(kept);
    }

    private void advanceMs(long ms) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(ms));
    }

    private static ParkedPoll poll() {
        return new ParkedPoll(new RecordingDelivery(true), NOWHERE);
    }
}
