package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.jackson.Jackson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hub without a server: polls are answered through {@link RecordingDelivery}s, the dispatcher runs batches on the publishing
 * thread, and the test plays Jetty's write and timeout callbacks, from two threads at once where the race
 * matters. Every poll must be completed exactly once, and the parked count must return to zero.
 */
class EventHubTest {

    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();

    private final HubMetrics metrics = new HubMetrics(new MetricRegistry());
    private final ExecutorService jettyThreads = Executors.newFixedThreadPool(2);
    private long lastPublished;

    @AfterEach
    void stopThreads() {
        jettyThreads.shutdownNow();
    }

    @Test
    void anEventRacingThePollsTimeoutsAnswersEveryPollExactlyOnce() throws Exception {
        EventHub hub = hub(1_000);
        int rounds = 300;
        int pollsPerRound = 20;
        int answeredWithEvent = 0;
        int timedOut = 0;
        int roundsWithABatchAnswer = 0;
        for (int round = 0; round < rounds; round++) {
            List<RecordingDelivery> polls = new ArrayList<>();
            for (int i = 0; i < pollsPerRound; i++) {
                RecordingDelivery poll = new RecordingDelivery(false);
                hub.poll(poll, Hubs.at(null), 60_000);
                polls.add(poll);
            }
            assertThat(hub.parkedCount()).isEqualTo(pollsPerRound);

            CountDownLatch start = new CountDownLatch(1);
            long eventId = lastPublished + 1;
            Future<?> event = jettyThreads.submit(() -> {
                start.await();
                publish(hub); // queues one write per poll still parked ...
                polls.forEach(RecordingDelivery::writePossible); // ... and Jetty runs them
                return null;
            });
            Future<?> timeouts = jettyThreads.submit(() -> {
                start.await();
                for (int i = polls.size() - 1; i >= 0; i--) {
                    polls.get(i).timeout();
                }
                return null;
            });
            start.countDown();
            event.get(10, TimeUnit.SECONDS);
            timeouts.get(10, TimeUnit.SECONDS);

            boolean anyWithEvent = false;
            for (RecordingDelivery poll : polls) {
                assertThat(poll.completions()).as("round %d", round).isEqualTo(1);
                assertThat(poll.status()).isIn(200, 204);
                if (poll.status() == 200) {
                    assertThat(ids(poll)).containsExactly(eventId);
                    answeredWithEvent++;
                    anyWithEvent = true;
                } else {
                    assertThat(poll.body()).isEmpty();
                    timedOut++;
                }
            }
            roundsWithABatchAnswer += anyWithEvent ? 1 : 0;
            assertThat(hub.parkedCount()).as("round %d", round).isZero();
        }
        assertThat(answeredWithEvent + timedOut).isEqualTo(rounds * pollsPerRound);
        assertThat(metrics.timeouts.getCount()).isEqualTo(timedOut);
        assertThat(metrics.eventToLastWrite.getCount()).isEqualTo(roundsWithABatchAnswer);
        assertThat(metrics.batchSize.getCount()).isEqualTo(rounds);
    }

    @Test
    void aPollWhoseCursorHasNewsIsAnsweredAtOnceWithoutParking() throws Exception {
        EventHub hub = hub(10);
        publish(hub);
        publish(hub);
        publish(hub);

        RecordingDelivery behind = new RecordingDelivery(true);
        hub.poll(behind, Hubs.at(1L), 60_000);
        RecordingDelivery beyond = new RecordingDelivery(true);
        hub.poll(beyond, Hubs.at(99L), 60_000);

        assertThat(behind.status()).isEqualTo(200);
        assertThat(ids(behind)).containsExactly(2L, 3L);
        assertThat(json(beyond).get("missed").asBoolean()).as("a cursor this stream never issued").isTrue();
        assertThat(json(beyond).get("lastId").asLong()).isEqualTo(3);
        assertThat(hub.parkedCount()).isZero();
        assertThat(metrics.answeredAtOnce.getCount()).isEqualTo(2);
        assertThat(metrics.missed.getCount()).isEqualTo(1);
    }

    @Test
    void aCursorOfAnotherEpochIsAnsweredAtOnceAsMissedNeverWithEventsOfThisHistory() throws Exception {
        EventHub hub = hub(10);
        RecordingDelivery first = new RecordingDelivery(true);
        hub.poll(first, Hubs.at(null), 60_000);
        publish(hub);
        publish(hub);
        String epoch = json(first).get("epoch").asText();
        assertThat(epoch).as("every answer names its history").isNotEmpty();

        // A cursor from before a restart: id 1 exists here too, but in another history.
        RecordingDelivery stale = new RecordingDelivery(true);
        hub.poll(stale, List.of(new TopicCursor(TopicNames.DEFAULT, 1L, "before-restart")), 60_000);
        RecordingDelivery current = new RecordingDelivery(true);
        hub.poll(current, List.of(new TopicCursor(TopicNames.DEFAULT, 1L, epoch)), 60_000);

        assertThat(stale.status()).isEqualTo(200);
        assertThat(ids(stale)).as("no event of another history").isEmpty();
        assertThat(json(stale).get("missed").asBoolean()).isTrue();
        assertThat(json(stale).get("lastId").asLong()).isEqualTo(2);
        assertThat(json(stale).get("epoch").asText()).isEqualTo(epoch);
        assertThat(ids(current)).containsExactly(2L);
        assertThat(json(current).get("missed").asBoolean()).isFalse();
        assertThat(metrics.epochMismatches.getCount()).isEqualTo(1);
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void aFullHubAnswers503WithRetryAfterAndParksNothingMore() throws Exception {
        EventHub hub = hub(2);
        hub.poll(new RecordingDelivery(true), Hubs.at(null), 60_000);
        hub.poll(new RecordingDelivery(true), Hubs.at(null), 60_000);

        RecordingDelivery third = new RecordingDelivery(true);
        hub.poll(third, Hubs.at(null), 60_000);

        assertThat(third.status()).isEqualTo(503);
        assertThat(third.header("Retry-After")).isEqualTo("1");
        assertThat(json(third).get("code").asInt()).isEqualTo(503);
        assertThat(third.completions()).isEqualTo(1);
        assertThat(hub.parkedCount()).isEqualTo(2);
        assertThat(metrics.rejected.getCount()).isEqualTo(1);
    }

    @Test
    void thePollsOwnDeadlineAnswers204AndAnAnsweredPollIsNotExpiredLater() throws Exception {
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        EventHub hub = Hubs.hub(16, 10, Runnable::run, MAPPER, metrics, null, nanos::get);
        RecordingDelivery waiting = new RecordingDelivery(true);
        hub.poll(waiting, Hubs.at(null), 50);
        RecordingDelivery answered = new RecordingDelivery(true);
        hub.poll(answered, Hubs.at(0L), 50);
        publish(hub); // answers both: the first event is news to cursor 0 and to "the next event"
        RecordingDelivery expiring = new RecordingDelivery(true);
        hub.poll(expiring, Hubs.at(null), 50);

        assertThat(hub.expireDue()).as("nothing is due before its timeout").isZero();
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(49));
        assertThat(hub.expireDue()).as("nor a millisecond before it").isZero();
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1 + EventHub.DEADLINE_SLOT_MS));
        assertThat(hub.expireDue()).as("only the poll still waiting: the answered ones forgot their deadline").isEqualTo(1);

        assertThat(expiring.status()).isEqualTo(204);
        assertThat(expiring.completions()).isEqualTo(1);
        assertThat(waiting.status()).isEqualTo(200);
        assertThat(waiting.completions()).isEqualTo(1);
        assertThat(answered.completions()).isEqualTo(1);
        assertThat(hub.parkedCount()).isZero();
        assertThat(metrics.timeouts.getCount()).isEqualTo(1);
        assertThat(hub.expireDue()).isZero();
    }

    @Test
    void aFailedPollIsCompletedAndLeavesTheParkedSet() {
        EventHub hub = hub(10);
        RecordingDelivery poll = new RecordingDelivery(true);
        hub.poll(poll, Hubs.at(null), 60_000);

        poll.fail(new IOException("connection reset"));
        publish(hub);

        assertThat(poll.completions()).isEqualTo(1);
        assertThat(poll.status()).as("nothing written to a failed request").isZero();
        assertThat(hub.parkedCount()).isZero();
        assertThat(metrics.disconnects.getCount()).isEqualTo(1);
        assertThat(metrics.batchSize.getSnapshot().getMax()).as("the event found no poll left").isZero();
    }

    @Test
    void everyLockedSectionGivesTheLockBackForAnotherThread() throws Exception {
        EventHub hub = hub(1_000);
        publish(hub);
        publish(hub);
        // ReentrantLock is reentrant: a section that forgot to unlock shows only on another thread, which then waits.
        assertThat(hub.lastId(TopicNames.DEFAULT)).isEqualTo(2);
        assertThat(onAnotherThread(() -> hub.lastId(TopicNames.DEFAULT))).as("after lastId").isEqualTo(2);
        assertThat(hub.lastId("never-published")).isZero();
        assertThat(hub.admitTopics(List.of("room-1"))).isTrue();
        assertThat(onAnotherThread(() -> hub.lastId("room-1"))).as("after admitTopics").isZero();
        assertThat(hub.evictIdleTopics(Long.MAX_VALUE)).as("none idle that long").isZero();
        assertThat(onAnotherThread(() -> hub.lastId(TopicNames.DEFAULT))).as("after evictIdleTopics").isEqualTo(2);
        assertThat(hub.closeAndTakeParked()).isEmpty();
        assertThat(onAnotherThread(() -> hub.lastId(TopicNames.DEFAULT))).as("after closeAndTakeParked").isEqualTo(2);
    }

    @Test
    void theStopHandsOverEveryParkedPollOnce() {
        EventHub hub = hub(1_000);
        hub.poll(new RecordingDelivery(false), Hubs.at(null), 60_000);
        hub.poll(new RecordingDelivery(false), List.of(new TopicCursor(TopicNames.DEFAULT, null),
                new TopicCursor("room-1", null)), 60_000);
        assertThat(hub.closeAndTakeParked()).as("a poll of two topics handed over once").hasSize(2);
        assertThat(hub.closeAndTakeParked()).as("a second stop finds none").isEmpty();
    }

    /** {@code read} on one of the test's other threads, within 10 s (it waits for ever on a lock still held). */
    private long onAnotherThread(Callable<Long> read) throws Exception {
        return jettyThreads.submit(read).get(10, TimeUnit.SECONDS);
    }

    private EventHub hub(int maxParked) {
        return Hubs.hub(16, maxParked, Runnable::run, MAPPER, metrics, null, System::nanoTime);
    }

    /** What the in-process stream does: number the next event and hand it to the hub on this thread. */
    private synchronized void publish(EventHub hub) {
        lastPublished++;
        hub.accept(Hubs.event(lastPublished));
    }

    private static JsonNode json(RecordingDelivery poll) throws IOException {
        return MAPPER.readTree(poll.body());
    }

    private static List<Long> ids(RecordingDelivery poll) throws IOException {
        List<Long> ids = new ArrayList<>();
        json(poll).get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }
}
