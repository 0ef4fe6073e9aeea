package com.example.threading.events.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.events.hub.Hubs;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.node.LongNode;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The history ring on its own: cursors, wrap-around, gaps, cursors beyond the newest id, and its lock check. */
class EventHistoryTest {

    private final ReentrantLock guard = new ReentrantLock();

    @BeforeEach
    void holdTheGuard() {
        guard.lock();
    }

    @AfterEach
    void releaseTheGuard() {
        while (guard.isHeldByCurrentThread()) {
            guard.unlock();
        }
    }

    @Test
    void anEmptyHistoryHasNothingForCursorZeroAndCallsAnyOtherCursorMissed() {
        EventHistory history = new EventHistory(4, guard);

        assertThat(history.lastId()).isZero();
        assertThat(history.hasNewsFor(0)).isFalse();
        assertBatch(history.after(0), List.of(), false, 0);
        assertThat(history.hasNewsFor(5)).as("a cursor this stream never issued").isTrue();
        assertBatch(history.after(5), List.of(), true, 0);
    }

    @Test
    void eventsAfterACursorComeOldestFirst() {
        EventHistory history = historyOf(4, 1, 2, 3);

        assertBatch(history.after(0), List.of(1L, 2L, 3L), false, 3);
        assertBatch(history.after(2), List.of(3L), false, 3);
        assertBatch(history.after(3), List.of(), false, 3);
        assertThat(history.hasNewsFor(3)).isFalse();
        assertThat(history.hasNewsFor(1)).isTrue();
    }

    @Test
    void aRedeliveredOrOlderEventIsRefusedAndChangesNothing() {
        EventHistory history = historyOf(4, 1, 2);

        assertThat(history.append(event(2))).isFalse();
        assertThat(history.append(event(1))).isFalse();
        assertThat(history.lastId()).isEqualTo(2);
        assertBatch(history.after(0), List.of(1L, 2L), false, 2);
    }

    @Test
    void theRingWrapsAroundKeepingTheNewestCapacityEvents() {
        EventHistory history = historyOf(4, LongStream.rangeClosed(1, 10).toArray());

        assertBatch(history.after(0), List.of(7L, 8L, 9L, 10L), true, 10);
        assertBatch(history.after(5), List.of(7L, 8L, 9L, 10L), true, 10);
        assertBatch(history.after(6), List.of(7L, 8L, 9L, 10L), false, 10);
        assertBatch(history.after(9), List.of(10L), false, 10);
    }

    @Test
    void manyWrapsLeaveExactlyTheLastCapacityEvents() {
        EventHistory history = historyOf(3, LongStream.rangeClosed(1, 1000).toArray());

        assertBatch(history.after(997), List.of(998L, 999L, 1000L), false, 1000);
        assertBatch(history.after(996), List.of(998L, 999L, 1000L), true, 1000);
    }

    @Test
    void gapsInIdsAreSkippedNotInvented() {
        EventHistory history = historyOf(8, 1, 2, 5, 6);

        assertBatch(history.after(0), List.of(1L, 2L, 5L, 6L), false, 6);
        assertBatch(history.after(2), List.of(5L, 6L), false, 6);
        assertBatch(history.after(3), List.of(5L, 6L), false, 6);
    }

    @Test
    void aGapThatReachesAroundTheRingDropsTheEventItOverwrites() {
        // Ids 1 and 5 share a slot in a ring of 4: event 1 is gone, event 2 is still held.
        EventHistory history = historyOf(4, 1, 2, 5);

        assertBatch(history.after(0), List.of(2L, 5L), true, 5);
        assertBatch(history.after(1), List.of(2L, 5L), false, 5);
    }

    @Test
    void aGapWiderThanTheRingCountsAsMissedBecauseTheHistoryCannotTellSkippedIdsFromUnseenOnes() {
        // With a shared stream, ids this instance never received may well exist (published before it started).
        EventHistory history = historyOf(4, 1, 10);

        assertBatch(history.after(1), List.of(10L), true, 10);
        assertBatch(history.after(6), List.of(10L), false, 10);
    }

    @Test
    void aHistoryThatStartsAboveIdOneHoldsNothingBelowItsFirstEvent() {
        // A shared stream's reader on a new instance starts at the stream's newest events, not at id 1.
        EventHistory history = historyOf(8, 100, 101);

        assertThat(history.covers(99)).isTrue();
        assertThat(history.covers(98)).isFalse();
        assertBatch(history.after(99), List.of(100L, 101L), false, 101);
        assertBatch(history.after(50), List.of(100L, 101L), true, 101);
    }

    @Test
    void aCursorBeyondTheNewestIdGetsEverythingHeldAndMissed() {
        EventHistory history = historyOf(4, 1, 2, 3);

        assertThat(history.hasNewsFor(4)).isTrue();
        assertBatch(history.after(4), List.of(1L, 2L, 3L), true, 3);
        assertBatch(history.after(Long.MAX_VALUE), List.of(1L, 2L, 3L), true, 3);
    }

    @Test
    void aCapacityBelowOneIsRefused() {
        assertThatThrownBy(() -> new EventHistory(0, guard)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSharedStreamsRingTakesItsEpochFromTheEventsAndStartsOverWhenItChanges() {
        EventHistory history = new EventHistory(4, guard, null);
        assertThat(history.sameEpoch(new TopicCursor(TopicNames.DEFAULT, 1L, "anything"))).as("no epoch yet: the archive decides").isTrue();
        LongStream.rangeClosed(1, 3).forEach(id -> history.append(event(id, "e1")));
        assertThat(history.epoch()).isEqualTo("e1");
        assertThat(history.startedOverSince(null)).as("taking a first epoch is not starting over").isFalse();
        assertThat(history.startedOverSince("e1")).isFalse();
        assertThat(history.sameEpoch(new TopicCursor(TopicNames.DEFAULT, 1L, "e1"))).isTrue();
        assertThat(history.sameEpoch(new TopicCursor(TopicNames.DEFAULT, 1L, "e0"))).isFalse();

        assertThat(history.append(event(2, "e2"))).as("a recreated stream may number from 1 again").isTrue();
        assertThat(history.epoch()).isEqualTo("e2");
        assertThat(history.startedOverSince("e1")).isTrue();
        assertBatch(history.after(0), List.of(2L), true, 2);
        assertBatch(history.startedOver(), List.of(2L), true, 2);
        assertThat(history.startedOver().epoch()).isEqualTo("e2");
        assertBatch(history.epochChanged(), List.of(), true, 2);
    }

    @Test
    void everyMethodRefusesACallerThatDoesNotHoldTheGuard() throws Exception {
        EventHistory history = historyOf(4, 1);
        guard.unlock();

        assertThatThrownBy(() -> history.append(event(2))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(history::lastId).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> history.hasNewsFor(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> history.after(0)).isInstanceOf(IllegalStateException.class);
        TopicCursor cursor = new TopicCursor("room", 0L);
        assertThatThrownBy(() -> history.read(cursor)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> history.sameEpoch(cursor)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(history::epoch).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> history.startedOverSince("e1")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(history::epochChanged).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(history::startedOver).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> history.covers(0)).isInstanceOf(IllegalStateException.class);

        // Held by another thread is not held by the caller either.
        guard.lock();
        CompletableFuture<Long> otherThread = CompletableFuture.supplyAsync(history::lastId);
        assertThatThrownBy(otherThread::get).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
    }

    private EventHistory historyOf(int capacity, long... ids) {
        EventHistory history = new EventHistory(capacity, guard);
        for (long id : ids) {
            assertThat(history.append(event(id))).as("append %d", id).isTrue();
        }
        return history;
    }

    private static Event event(long id) {
        return Hubs.event(id);
    }

    private static Event event(long id, String epoch) {
        return new Event(id, TopicNames.DEFAULT, Instant.EPOCH, LongNode.valueOf(id), epoch);
    }

    private static void assertBatch(EventBatch batch, List<Long> ids, boolean missed, long lastId) {
        assertThat(batch.events()).extracting(Event::id).containsExactlyElementsOf(ids);
        assertThat(batch.missed()).as("missed").isEqualTo(missed);
        assertThat(batch.lastId()).as("lastId").isEqualTo(lastId);
    }
}
