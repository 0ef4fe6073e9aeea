package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.Meter;
import com.example.threading.events.history.EventBatch;
import com.example.threading.events.history.EventHistory;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.TopicNames;
import com.example.threading.testing.Await;
import com.fasterxml.jackson.databind.node.LongNode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The blocking twin's waiting on real threads: woken by news or close, timed out, counted, and signalled only under the lock. */
class BlockingWaitsTest {

    private final ReentrantLock lock = new ReentrantLock();
    private final Topic topic = new Topic(TopicNames.DEFAULT, new EventHistory(4, lock, "e1"), 0);
    private final EventHistory history = topic.history();
    private final Meter timeouts = new Meter();
    private final Meter missed = new Meter();
    private final BlockingWaits waits = new BlockingWaits(lock, name -> name.equals(TopicNames.DEFAULT) ? topic : null, timeouts, missed);
    private final ExecutorService waiters = Executors.newCachedThreadPool();

    @AfterEach
    void stopWaiters() {
        waiters.shutdownNow();
    }

    @Test
    void everyWaiterWakesWithTheEventAfterItsCursor() throws Exception {
        append(1);
        List<Future<BlockingWaits.Outcome>> outcomes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            outcomes.add(waiters.submit(() -> waits.await(Hubs.at(1L), 30_000)));
        }
        outcomes.add(waiters.submit(() -> waits.await(Hubs.at(null), 30_000))); // null: the next event
        Await.until(() -> waits.waiting() == 6, Duration.ofSeconds(10), "6 threads waiting");

        append(2);

        for (Future<BlockingWaits.Outcome> outcome : outcomes) {
            EventBatch batch = (EventBatch) outcome.get(10, TimeUnit.SECONDS).answer;
            assertThat(batch.events()).extracting(Event::id).containsExactly(2L);
            assertThat(batch.missed()).isFalse();
        }
        assertThat(waits.waiting()).isZero();
        assertThat(timeouts.getCount()).isZero();
    }

    @Test
    void aCursorWithNewsIsAnsweredWithoutWaitingAndAMissedCursorIsCounted() throws Exception {
        for (long id = 1; id <= 6; id++) {
            append(id);
        }
        BlockingWaits.Outcome outcome = waits.await(Hubs.at(0L), 30_000);

        assertThat(((EventBatch) outcome.answer).events()).extracting(Event::id).containsExactly(3L, 4L, 5L, 6L);
        assertThat(((EventBatch) outcome.answer).missed()).isTrue();
        assertThat(missed.getCount()).isEqualTo(1);
    }

    @Test
    void aCursorOfAnotherEpochIsAnsweredAtOnceAsMissedWithTheCurrentEpochAndCursor() throws Exception {
        append(1);
        append(2);
        BlockingWaits.Outcome outcome = waits.await(List.of(new TopicCursor(TopicNames.DEFAULT, 1L, "e0")), 30_000);

        EventBatch batch = (EventBatch) outcome.answer;
        assertThat(batch.events()).as("no event of another history").isEmpty();
        assertThat(batch.missed()).isTrue();
        assertThat(batch.lastId()).isEqualTo(2);
        assertThat(batch.epoch()).isEqualTo("e1");
        BlockingWaits.Outcome same = waits.await(List.of(new TopicCursor(TopicNames.DEFAULT, 1L, "e1")), 30_000);
        assertThat(((EventBatch) same.answer).events()).extracting(Event::id).containsExactly(2L);
    }

    @Test
    void aWaiterWhoseSharedStreamIsRecreatedIsToldItsHistoryIsGone() throws Exception {
        Topic shared = new Topic("shared", new EventHistory(8, lock), 0); // a shared stream's ring: epochs from its events
        BlockingWaits sharedWaits = new BlockingWaits(lock, name -> shared, timeouts, missed);
        appendTo(shared, sharedWaits, new Event(5, "shared", Instant.EPOCH, LongNode.valueOf(5), "e1"));
        Future<BlockingWaits.Outcome> waiting = waiters.submit(() ->
                sharedWaits.await(List.of(new TopicCursor("shared", 5L, "e1")), 30_000));
        Await.until(() -> sharedWaits.waiting() == 1, Duration.ofSeconds(10), "a thread waiting at 5");

        // Redis lost the stream and a publish recreated it: a new epoch, the ids going on from the publisher's floor.
        appendTo(shared, sharedWaits, new Event(6, "shared", Instant.EPOCH, LongNode.valueOf(6), "e2"));

        EventBatch batch = (EventBatch) waiting.get(10, TimeUnit.SECONDS).answer;
        assertThat(batch.missed()).as("event 6 of the new history does not follow 5 of the old").isTrue();
        assertThat(batch.events()).extracting(Event::id).containsExactly(6L);
        assertThat(batch.lastId()).isEqualTo(6);
        assertThat(batch.epoch()).isEqualTo("e2");
        assertThat(missed.getCount()).isEqualTo(1);
    }

    @Test
    void aWaitWithoutNewsTimesOutAndIsCounted() throws Exception {
        long start = System.nanoTime();
        BlockingWaits.Outcome outcome = waits.await(Hubs.at(null), 200);

        assertThat(outcome).isSameAs(BlockingWaits.Outcome.TIMED_OUT);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(timeouts.getCount()).isEqualTo(1);
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void closeWakesEveryWaiterAndAnswersLaterOnesAtOnceUnlessTheyHaveNews() throws Exception {
        append(1);
        List<Future<BlockingWaits.Outcome>> outcomes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            outcomes.add(waiters.submit(() -> waits.await(Hubs.at(null), 30_000)));
        }
        Await.until(() -> waits.waiting() == 3, Duration.ofSeconds(10), "3 threads waiting");

        lock.lock();
        try {
            waits.close();
        } finally {
            lock.unlock();
        }

        for (Future<BlockingWaits.Outcome> outcome : outcomes) {
            assertThat(outcome.get(10, TimeUnit.SECONDS)).isSameAs(BlockingWaits.Outcome.CLOSED);
        }
        assertThat(waits.await(Hubs.at(null), 30_000)).isSameAs(BlockingWaits.Outcome.CLOSED);
        assertThat(waits.await(Hubs.at(0L), 30_000).answer).as("news is still answered").isInstanceOf(EventBatch.class);
        assertThat(((EventBatch) waits.await(Hubs.at(0L), 30_000).answer).events()).as("news is still answered").hasSize(1);
        assertThat(timeouts.getCount()).isZero();
    }

    @Test
    void aTopicTheHubWillNotHoldEndsTheWaitAtOnce() throws Exception {
        assertThat(waits.await(List.of(new TopicCursor("another", null)), 30_000)).isSameAs(BlockingWaits.Outcome.TOO_MANY_TOPICS);
        assertThat(waits.waiting()).isZero();
    }

    @Test
    void signallingWithoutTheLockIsRefused() {
        assertThatThrownBy(waits::signalNews).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(waits::close).isInstanceOf(IllegalStateException.class);
    }

    /** What the hub does on an event: append and signal in one hold of the lock. */
    private void append(long id) {
        appendTo(topic, waits, Hubs.event(id));
    }

    private void appendTo(Topic to, BlockingWaits signalled, Event event) {
        lock.lock();
        try {
            assertThat(to.history().append(event)).isTrue();
            signalled.signalNews();
        } finally {
            lock.unlock();
        }
    }
}
