package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.TopicNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * ParkedPoll's claim on real threads released together, many rounds: exactly one answerer wins, and the parked
 * count that the hub keeps from {@code markParked} and {@code WAS_PARKED} goes back to zero, whether the claims
 * race each other or the parking itself. A race test finds a broken claim only when the racers really overlap:
 * with {@code claim} made non-atomic (a get and a set instead of the compare-and-set), these tests failed in 3 of
 * 4 runs on the 2-core build machine at a load average of 15, in about 3 s.
 */
class ParkedPollTest {

    private static final int ROUNDS = 2_000;
    private static final int POLLS = 100;
    private static final int CLAIMERS = 2;
    /** The polls' request: ParkedPoll only hands it out, and Jetty's events carry it. */
    private static final RecordingDelivery DELIVERY = new RecordingDelivery(false);

    private final ExecutorService threads = Executors.newFixedThreadPool(CLAIMERS + 2);

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void aPollSaysWhatItAskedAndWhetherItStands() {
        ParkedPoll one = new ParkedPoll(DELIVERY, new RecordingLot(), List.of(new TopicCursor("a", null)));
        ParkedPoll two = new ParkedPoll(DELIVERY, new RecordingLot(),
                List.of(new TopicCursor("a", 1L), new TopicCursor("b", 2L, "epoch-1")));
        assertThat(one.severalTopics()).isFalse();
        assertThat(two.severalTopics()).isTrue();
        assertThat(one.sentEpochs()).as("its answer depends on its cursors alone").isFalse();
        assertThat(two.sentEpochs()).isTrue();

        assertThat(one.stands()).as("new, not parked yet").isFalse();
        assertThat(one.markParked(Map.of("a", 4L))).isTrue();
        assertThat(one.stands()).isTrue();
        assertThat(one.claim(new ParkedPoll.Answerer() { })).isEqualTo(ParkedPoll.Claim.WAS_PARKED);
        assertThat(one.stands()).as("claimed").isFalse();
    }

    @Test
    void concurrentClaimersOfAParkedPollHaveExactlyOneWinner() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            List<ParkedPoll> polls = newPolls();
            polls.forEach(poll -> assertThat(poll.markParked(Map.of(TopicNames.DEFAULT, 7L))).isTrue());

            List<List<ParkedPoll.Claim>> claims = race(polls, () -> null);

            for (int p = 0; p < POLLS; p++) {
                List<ParkedPoll.Claim> ofThisPoll = claimsOf(claims, p);
                assertThat(ofThisPoll).as("round %d, poll %d", round, p).containsOnlyOnce(ParkedPoll.Claim.WAS_PARKED)
                        .filteredOn(claim -> claim != ParkedPoll.Claim.WAS_PARKED).containsOnly(ParkedPoll.Claim.LOST);
            }
        }
    }

    @Test
    void claimsRacingTheParkingLeaveTheParkedCountAtZero() throws Exception {
        AtomicInteger parkedCount = new AtomicInteger();
        for (int round = 0; round < ROUNDS; round++) {
            List<ParkedPoll> polls = newPolls();

            List<List<ParkedPoll.Claim>> claims = race(polls, () -> {
                for (ParkedPoll poll : polls) {
                    // As the hub does under its lock: count the poll only if nobody claimed it first.
                    if (poll.markParked(Map.of(TopicNames.DEFAULT, 3L))) {
                        parkedCount.incrementAndGet();
                    }
                }
                return null;
            });

            for (int p = 0; p < POLLS; p++) {
                List<ParkedPoll.Claim> ofThisPoll = claimsOf(claims, p);
                assertThat(ofThisPoll).as("round %d, poll %d", round, p)
                        .filteredOn(claim -> claim != ParkedPoll.Claim.LOST).hasSize(1);
                if (ofThisPoll.contains(ParkedPoll.Claim.WAS_PARKED)) {
                    parkedCount.decrementAndGet(); // as the hub does for the claim that took a counted poll
                }
            }
            assertThat(parkedCount).as("round %d", round).hasValue(0);
        }
    }

    @Test
    void aWatcherIsToldOfTheCompletionExactlyOnceAndWhetherItsOwnClaimAnswered() {
        ParkedPoll byWatcher = new ParkedPoll(DELIVERY, new RecordingLot());
        byWatcher.markParked(Map.of(TopicNames.DEFAULT, 1L));
        RecordingWatcher watcher = new RecordingWatcher();
        assertThat(byWatcher.watch(watcher)).isTrue();
        assertThat(byWatcher.watch(new RecordingWatcher())).as("one watcher per poll").isFalse();
        assertThat(byWatcher.claim(watcher)).isEqualTo(ParkedPoll.Claim.WAS_PARKED);
        byWatcher.completed();
        byWatcher.completed();
        assertThat(watcher.calls).containsExactly(true);

        ParkedPoll byTimeout = new ParkedPoll(DELIVERY, new RecordingLot());
        byTimeout.markParked(Map.of(TopicNames.DEFAULT, 1L));
        RecordingWatcher late = new RecordingWatcher();
        assertThat(byTimeout.watch(late)).isTrue();
        assertThat(byTimeout.claim(new ParkedPoll.Answerer() { })).isEqualTo(ParkedPoll.Claim.WAS_PARKED);
        assertThat(byTimeout.claim(late)).isEqualTo(ParkedPoll.Claim.LOST);
        byTimeout.completed();
        assertThat(late.calls).containsExactly(false);

        ParkedPoll completed = new ParkedPoll(DELIVERY, new RecordingLot());
        completed.completed();
        RecordingWatcher tooLate = new RecordingWatcher();
        assertThat(completed.watch(tooLate)).as("already complete: nothing will be told").isFalse();
        assertThat(tooLate.calls).isEmpty();
    }

    @Test
    void watchRacingCompletionTellsTheWatcherIfAndOnlyIfItWasAccepted() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            ParkedPoll poll = new ParkedPoll(DELIVERY, new RecordingLot());
            RecordingWatcher watcher = new RecordingWatcher();
            CountDownLatch start = new CountDownLatch(1);
            Future<Boolean> watched = threads.submit(() -> {
                start.await();
                return poll.watch(watcher);
            });
            Future<?> completion = threads.submit(() -> {
                start.await();
                poll.completed();
                return null;
            });
            start.countDown();
            boolean accepted = watched.get(10, TimeUnit.SECONDS);
            completion.get(10, TimeUnit.SECONDS);

            assertThat(watcher.calls).as("round %d, accepted %s", round, accepted).hasSize(accepted ? 1 : 0);
        }
    }

    @Test
    void jettysTimeoutErrorAndCompletionCallbacksGoToTheParkingLot() {
        RecordingLot lot = new RecordingLot();
        ParkedPoll poll = new ParkedPoll(DELIVERY, lot);
        IOException reset = new IOException("reset");

        poll.timedOut();
        poll.failed(reset);

        assertThat(lot.timedOut).hasValue(poll);
        assertThat(lot.failed).hasValue(poll);
        assertThat(lot.failure).hasValue(reset);
        assertThat(lot.completed).as("told only on completion").hasValue(null);

        poll.completed();

        assertThat(lot.completed).hasValue(poll);
    }

    /**
     * Starts {@code other} and {@link #CLAIMERS} claimers together; each claimer claims every poll in order, so
     * the claimers run into each other poll after poll. Returns each claimer's outcomes, in poll order. The racers
     * wait for the start on a flag rather than a latch: a latch wakes its waiters one after the other,
     * microseconds apart, while a lost update needs two claims within nanoseconds.
     */
    private List<List<ParkedPoll.Claim>> race(List<ParkedPoll> polls, Callable<Void> other) throws Exception {
        AtomicInteger arrived = new AtomicInteger();
        AtomicBoolean go = new AtomicBoolean();
        Future<Void> otherDone = threads.submit(() -> {
            awaitStart(arrived, go);
            return other.call();
        });
        List<Future<List<ParkedPoll.Claim>>> claimers = new ArrayList<>();
        for (int i = 0; i < CLAIMERS; i++) {
            ParkedPoll.Answerer answerer = new ParkedPoll.Answerer() { };
            claimers.add(threads.submit(() -> {
                awaitStart(arrived, go);
                List<ParkedPoll.Claim> outcomes = new ArrayList<>(polls.size());
                for (ParkedPoll poll : polls) {
                    outcomes.add(poll.claim(answerer));
                }
                return outcomes;
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (arrived.get() < CLAIMERS + 1) {
            assertThat(System.nanoTime()).as("racers ready within 10 s").isLessThan(deadline);
            Thread.yield();
        }
        go.set(true);
        otherDone.get(10, TimeUnit.SECONDS);
        List<List<ParkedPoll.Claim>> outcomes = new ArrayList<>();
        for (Future<List<ParkedPoll.Claim>> claimer : claimers) {
            outcomes.add(claimer.get(10, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    private static List<ParkedPoll.Claim> claimsOf(List<List<ParkedPoll.Claim>> claimsByClaimer, int poll) {
        return claimsByClaimer.stream().map(claims -> claims.get(poll)).toList();
    }

    private static List<ParkedPoll> newPolls() {
        List<ParkedPoll> polls = new ArrayList<>(POLLS);
        for (int i = 0; i < POLLS; i++) {
            polls.add(new ParkedPoll(DELIVERY, new RecordingLot()));
        }
        return polls;
    }

    private static void awaitStart(AtomicInteger arrived, AtomicBoolean go) {
        arrived.incrementAndGet();
        while (!go.get()) {
            Thread.yield(); // not onSpinWait: on a 2-core machine spinning racers would starve the ones not yet started
        }
    }

    private static final class RecordingLot implements ParkedPoll.ParkingLot {
        final AtomicReference<ParkedPoll> timedOut = new AtomicReference<>();
        final AtomicReference<ParkedPoll> failed = new AtomicReference<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final AtomicReference<ParkedPoll> completed = new AtomicReference<>();

        @Override
        public void timedOut(ParkedPoll poll) {
            timedOut.set(poll);
        }

        @Override
        public void failed(ParkedPoll poll, Throwable cause) {
            failed.set(poll);
            failure.set(cause);
        }

        @Override
        public void completed(ParkedPoll poll) {
            completed.set(poll);
        }
    }

    private static final class RecordingWatcher implements ParkedPoll.Watcher {
        final List<Boolean> calls = new CopyOnWriteArrayList<>();

        @Override
        public void completed(boolean byWatcher) {
            calls.add(byWatcher);
        }
    }
}
