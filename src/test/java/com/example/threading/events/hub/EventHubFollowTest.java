package com.example.threading.events.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.history.TopicNews;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import io.dropwizard.jackson.Jackson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * Standing polls ({@link EventHub#follow}) without a server: the dispatcher runs on the publishing thread, a
 * {@link Recorder} plays the transport, and the clock is the test's. A standing poll is placed once and handed every
 * later event of its topics, in order, each once; its heartbeats and the events it is handed leave it parked; only a
 * withdrawal, a failure or the stop ends it.
 */
class EventHubFollowTest {

    private static final ObjectMapper MAPPER = Jackson.newObjectMapper();

    private final MetricRegistry registry = new MetricRegistry();
    private final HubMetrics metrics = new HubMetrics(registry);
    private final AtomicLong nanos = new AtomicLong();
    private final EventHub hub = Hubs.hub(8, 100, Runnable::run, MAPPER, metrics, null, nanos::get);

    @Test
    void aStandingPollIsHandedEveryEventWithoutBeingPlacedAgain() {
        Recorder follower = new Recorder();
        hub.follow(follower, Hubs.at(null), 60_000);
        assertThat(hub.parkedCount()).isEqualTo(1);

        for (long id = 1; id <= 5; id++) {
            hub.accept(Hubs.event(id));
        }
        hub.acceptAll(List.of(Hubs.event(6), Hubs.event(7)));

        assertThat(follower.news).extracting(EventHubFollowTest::ids)
                .containsExactly(List.of(1L), List.of(2L), List.of(3L), List.of(4L), List.of(5L), List.of(6L, 7L));
        assertThat(follower.news).allSatisfy(news -> {
            assertThat(news.topic()).isEqualTo(TopicNames.DEFAULT);
            assertThat(news.missed()).isFalse();
            assertThat(news.epoch()).isNotNull();
        });
        assertThat(follower.offers).isEmpty(); // nothing ended the poll
        assertThat(hub.parkedCount()).isEqualTo(1);
        assertThat(metrics.answeredAtOnce.getCount()).isZero();
        assertThat(metrics.eventToLastWrite.getCount()).isEqualTo(6); // one batch per delivery, timed at the last hand-over
        assertThat(metrics.batchSize.getSnapshot().getValues()).containsOnly(1L);
    }

    @Test
    void newsTheCursorsHadIsAnsweredAtOnceAndEndsThatPoll() {
        hub.accept(Hubs.event(1));
        hub.accept(Hubs.event(2));
        Recorder follower = new Recorder();
        hub.follow(follower, Hubs.at(0L), 60_000);

        assertThat(follower.offers).hasSize(1);
        assertThat(follower.offers.get(0)).isInstanceOf(Answer.News.class);
        assertThat(follower.claims.get(0).getAsBoolean()).isTrue();
        assertThat(hub.parkedCount()).isZero();

        Recorder again = new Recorder(); // the transport follows again from after the news
        hub.follow(again, Hubs.at(2L), 60_000);
        hub.accept(Hubs.event(3));
        assertThat(again.news).extracting(EventHubFollowTest::ids).containsExactly(List.of(3L));
        assertThat(follower.news).isEmpty();
    }

    @Test
    void aHeartbeatLeavesThePollStandingAndComesEveryPeriod() {
        Recorder follower = new Recorder();
        hub.follow(follower, Hubs.at(null), 1_000);
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1_100));
        hub.expireDue();
        assertThat(follower.heartbeats).hasValue(1);
        hub.accept(Hubs.event(1));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(1_000));
        hub.expireDue();

        assertThat(follower.heartbeats).hasValue(2);
        assertThat(follower.news).extracting(EventHubFollowTest::ids).containsExactly(List.of(1L));
        assertThat(hub.parkedCount()).isEqualTo(1);
        assertThat(metrics.timeouts.getCount()).isZero();
    }

    @Test
    void aWithdrawnPollIsHandedNothingMoreAndHasNoMoreHeartbeats() {
        Recorder follower = new Recorder();
        hub.follow(follower, Hubs.at(null), 1_000);
        hub.accept(Hubs.event(1));
        assertThat(hub.withdraw(follower.poll)).isTrue();
        hub.accept(Hubs.event(2));
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(5));
        assertThat(hub.expireDue()).as("its heartbeat's deadline left with it").isZero();

        assertThat(follower.news).extracting(EventHubFollowTest::ids).containsExactly(List.of(1L));
        assertThat(follower.heartbeats).hasValue(0);
        assertThat(hub.parkedCount()).isZero();
        assertThat(hub.withdraw(follower.poll)).isFalse();
    }

    @Test
    void aFailedRequestEndsItsStandingPoll() {
        Recorder follower = new Recorder();
        hub.follow(follower, Hubs.at(null), 60_000);
        follower.poll.failed(new IllegalStateException("reset"));
        hub.accept(Hubs.event(1));

        assertThat(follower.abandoned).hasValue(1);
        assertThat(follower.news).isEmpty();
        assertThat(hub.parkedCount()).isZero();
    }

    @Test
    void aPollOfSeveralTopicsIsHandedEachTopicsEventsOnceAndTheOthersStayFollowed() {
        Recorder follower = new Recorder();
        hub.follow(follower, List.of(new TopicCursor("a", null), new TopicCursor("b", null)), 60_000);
        hub.accept(Hubs.event("a", 1));
        hub.acceptAll(List.of(Hubs.event("b", 1), Hubs.event("a", 2), Hubs.event("b", 2)));
        hub.accept(Hubs.event("b", 3));

        assertThat(follower.news).extracting(news -> news.topic() + ids(news))
                .containsExactly("a[1]", "b[1, 2]", "a[2]", "b[3]");
        assertThat(hub.parkedCount()).isEqualTo(1);
    }

    @Test
    void theTopicsFollowersAndThePollsEachEventReachesFirstShareOneDelivery() {
        // A shared stream: the archive says how far its ids are numbered (published, here or elsewhere).
        AtomicLong numbered = new AtomicLong();
        EventArchive archive = (topic, cursor, limit) ->
                CompletableFuture.completedFuture(new EventArchive.Read(List.of(), numbered.get(), null));
        EventHub shared = Hubs.hub(8, 100, Runnable::run, MAPPER, metrics, archive, nanos::get);
        Recorder early = new Recorder();
        shared.follow(early, List.of(new TopicCursor("t", null)), 60_000);
        numbered.set(1);
        shared.accept(Hubs.event("t", 1));
        numbered.set(3); // 2 and 3 published elsewhere, not yet read here
        Recorder ahead = new Recorder(); // a cursor this hub has not read up to yet: it waits for the reader
        shared.follow(ahead, List.of(new TopicCursor("t", 3L)), 60_000);
        assertThat(ahead.offers).isEmpty();

        shared.acceptAll(List.of(Hubs.event("t", 2), Hubs.event("t", 3), Hubs.event("t", 4), Hubs.event("t", 5)));

        assertThat(early.news).extracting(EventHubFollowTest::ids).containsExactly(List.of(1L), List.of(2L, 3L, 4L, 5L));
        assertThat(ahead.news).extracting(EventHubFollowTest::ids).containsExactly(List.of(4L, 5L));
        shared.accept(Hubs.event("t", 6));
        assertThat(ahead.news).extracting(EventHubFollowTest::ids).containsExactly(List.of(4L, 5L), List.of(6L));
        assertThat(metrics.batchSize.getSnapshot().getValues()).containsExactlyInAnyOrder(1, 1, 1, 2, 2, 2);
        assertThat(shared.parkedCount()).isEqualTo(2);
    }

    @Test
    void theStopTakesTheStandingPollsAndAFollowedTopicIsNotIdle() {
        Recorder follower = new Recorder();
        hub.follow(follower, List.of(new TopicCursor("kept", null)), 60_000);
        hub.accept(Hubs.event("kept", 1));
        nanos.addAndGet(TimeUnit.HOURS.toNanos(1));
        assertThat(hub.evictIdleTopics(TimeUnit.MINUTES.toNanos(1))).isZero();

        assertThat(hub.closeAndTakeParked()).containsExactly(follower.poll);
    }

    @Test
    void aHistoryThatStartsOverHandsItsFollowersTheNewHistoryMissed() {
        AtomicInteger reads = new AtomicInteger();
        EventArchive empty = (topic, cursor, limit) -> {
            reads.incrementAndGet();
            return CompletableFuture.completedFuture(new EventArchive.Read(List.of(), 0, null));
        };
        EventHub shared = Hubs.hub(8, 100, Runnable::run, MAPPER, metrics, empty, nanos::get);
        Recorder follower = new Recorder();
        shared.follow(follower, Hubs.at(null), 60_000);
        shared.accept(event(1, "E1"));
        shared.accept(event(2, "E1"));
        shared.accept(event(1, "E2")); // the stream was recreated: its ids start again

        assertThat(follower.news).extracting(EventHubFollowTest::ids).containsExactly(List.of(1L), List.of(2L), List.of(1L));
        assertThat(follower.news).extracting(TopicNews::missed).containsExactly(false, false, true);
        assertThat(follower.news).extracting(TopicNews::epoch).containsExactly("E1", "E1", "E2");
        assertThat(shared.parkedCount()).isEqualTo(1);
    }

    private static Event event(long id, String epoch) {
        return new Event(id, TopicNames.DEFAULT, Instant.EPOCH, LongNode.valueOf(id), epoch);
    }

    @Test
    void theHubsMetersCountTopicsFollowsMissedEventsAndBatches() {
        hub.follow(new Recorder(), Hubs.at(null), 60_000);
        assertThat(metrics.follows.getCount()).isEqualTo(1);

        assertThat(hub.admitTopics(List.of("room-1"))).isTrue();
        assertThat(metrics.topicsCreated.getCount()).as("room-1; the default topic is made with the hub").isEqualTo(1);
        hub.accept(Hubs.event("room-1", 1));
        // A poll parked after 1, then a burst of 9 events at once through a ring of 8: its one batch says missed.
        RecordingDelivery behind = new RecordingDelivery(true);
        hub.poll(behind, List.of(new TopicCursor("room-1", 1L)), 60_000);
        long queuedBefore = metrics.eventToQueued.getCount();
        List<Event> burst = new ArrayList<>();
        for (long id = 2; id <= 10; id++) {
            burst.add(Hubs.event("room-1", id));
        }
        hub.acceptAll(burst);
        assertThat(behind.completions()).isEqualTo(1);
        assertThat(metrics.missed.getCount()).isEqualTo(1);
        assertThat(metrics.eventToQueued.getCount() - queuedBefore).as("one batch, one time to queued").isEqualTo(1);

        nanos.addAndGet(TimeUnit.SECONDS.toNanos(10));
        assertThat(hub.evictIdleTopics(TimeUnit.SECONDS.toNanos(1))).as("room-1; the default topic stays").isEqualTo(1);
        assertThat(metrics.topicsEvicted.getCount()).isEqualTo(1);
    }

    private static List<Long> ids(TopicNews news) {
        return news.events().stream().map(Event::id).toList();
    }

    /** A transport that records what it is told and hands every event over at once. */
    private static final class Recorder implements Follower {
        final List<TopicNews> news = new CopyOnWriteArrayList<>();
        final List<Answer> offers = new CopyOnWriteArrayList<>();
        final List<BooleanSupplier> claims = new CopyOnWriteArrayList<>();
        final AtomicInteger heartbeats = new AtomicInteger();
        final AtomicInteger abandoned = new AtomicInteger();
        volatile ParkedPoll poll;

        @Override
        public void attach(ParkedPoll attached) {
            poll = attached;
        }

        @Override
        public void follow(TopicNews next, Runnable handed) {
            news.add(next);
            handed.run();
        }

        @Override
        public void offer(Answer answer, BooleanSupplier claim) {
            offers.add(answer);
            claims.add(claim);
        }

        @Override
        public void expire() {
            heartbeats.incrementAndGet();
        }

        @Override
        public void abandon() {
            abandoned.incrementAndGet();
        }
    }
}
