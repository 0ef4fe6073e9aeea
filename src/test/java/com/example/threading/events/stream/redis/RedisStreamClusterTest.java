package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Two service instances on one real Redis: an event published on either reaches the polls of both, numbered once. */
class RedisStreamClusterTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static TestRedis redis;
    private static ServiceInstance a;
    private static ServiceInstance b;
    private static RedisClient client;
    private static RedisCommands<String, String> commands;
    private static final String KEY = "cluster-test";
    /** The default topic's stream and counter under that prefix. */
    private static final String STREAM = KEY + ":{default}";
    private static final String COUNTER = STREAM + ":last-id";
    /** A small ring, so that cursors fall out of it and are answered from the stream. */
    private static final int RING = 16;

    @BeforeAll
    static void startRedisAndTwoInstances() throws Exception {
        redis = TestRedis.startOrSkip();
        a = new ServiceInstance(HTTP, redis.uri(), KEY, "events.historySize", Integer.toString(RING)).startHealthy();
        b = new ServiceInstance(HTTP, redis.uri(), KEY, "events.historySize", Integer.toString(RING)).startHealthy();
        client = RedisClient.create(redis.uri());
        commands = client.connect().sync();
    }

    @AfterAll
    static void stopAll() {
        if (client != null) {
            client.shutdown();
        }
        Stopping.closeAll(a, b, redis, HTTP);
    }

    @Test
    void anEventPublishedOnAReachesAPollParkedOnB() throws Exception {
        long cursor = b.lastId();
        CompletableFuture<Answer> parkedOnB = HTTP.getAsync(b.url("/events?after=" + cursor + "&timeout=30"));
        Await.until(() -> b.admin().gauge("events.parked") == 1, Duration.ofSeconds(10), "the poll parked on B");

        Answer published = a.publish("{\"from\":\"a\"}");
        assertThat(published.status()).isEqualTo(200);
        long id = published.json().get("id").asLong();
        assertThat(id).isEqualTo(cursor + 1);

        Answer answer = parkedOnB.get(10, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(200);
        JsonNode events = answer.json().get("events");
        assertThat(events).hasSize(1);
        assertThat(events.get(0).get("id").asLong()).isEqualTo(id);
        assertThat(events.get(0).get("data").get("from").asText()).isEqualTo("a");
        assertThat(events.get(0).get("time").asText()).isEqualTo(published.json().get("time").asText());
        assertThat(answer.json().get("lastId").asLong()).isEqualTo(id);
        Await.until(() -> a.lastId() == id, Duration.ofSeconds(10), "A's own reader delivered the event to A's hub");
        assertThat(a.admin().count("events.redis.publish.latency")).as("publishes timed").isPositive();
        assertThat(a.admin().gauge("events.redis.reader.lag")).isZero();
    }

    @Test
    void concurrentPublishersOnBothInstancesAreSeenByEveryFollowerOnceAndInOrder() throws Exception {
        Await.until(() -> a.lastId() == b.lastId(), Duration.ofSeconds(10), "both instances caught up");
        long start = a.lastId();
        int publishersPerInstance = 3;
        int eventsPerPublisher = 60;
        int total = 2 * publishersPerInstance * eventsPerPublisher;
        long end = start + total;

        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            // Followers on A, on B, and on a random one of the two per poll (a cursor from one instance, whose
            // reader may lag the other's, must neither be missed nor answered twice).
            List<Future<List<Long>>> followers = new ArrayList<>();
            for (int i = 0; i < 9; i++) {
                List<ServiceInstance> on = switch (i % 3) {
                    case 0 -> List.of(a);
                    case 1 -> List.of(b);
                    default -> List.of(a, b);
                };
                followers.add(threads.submit(() -> follow(on, start, end)));
            }
            Set<Long> publishedIds = new ConcurrentSkipListSet<>();
            List<Future<?>> publishers = new ArrayList<>();
            for (int p = 0; p < 2 * publishersPerInstance; p++) {
                ServiceInstance on = p % 2 == 0 ? a : b;
                int publisher = p;
                publishers.add(threads.submit(() -> {
                    for (int n = 0; n < eventsPerPublisher; n++) {
                        Answer answer = on.publish("{\"publisher\":" + publisher + ",\"n\":" + n + "}");
                        assertThat(answer.status()).isEqualTo(200);
                        assertThat(publishedIds.add(answer.json().get("id").asLong())).as("a new id").isTrue();
                    }
                    return null;
                }));
            }
            for (Future<?> publisher : publishers) {
                publisher.get(60, TimeUnit.SECONDS);
            }
            // Every id from start + 1 to end exactly once: no gap, no duplicate, across both instances.
            assertThat(publishedIds).hasSize(total);
            assertThat(new TreeSet<>(publishedIds).first()).isEqualTo(start + 1);
            assertThat(new TreeSet<>(publishedIds).last()).isEqualTo(end);

            for (Future<List<Long>> follower : followers) {
                List<Long> seen = follower.get(60, TimeUnit.SECONDS);
                assertThat(seen).hasSize(total);
                for (int i = 0; i < total; i++) {
                    assertThat(seen.get(i)).as("event %d of a follower", i).isEqualTo(start + 1 + i);
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aCursorOlderThanTheRingIsAnsweredFromTheStreamAndMissedOnlyOnceTheStreamTrimmedIt() {
        long start = a.publish("{\"n\":0}").json().get("id").asLong();
        for (int n = 1; n < 3 * RING; n++) {
            assertThat(a.publish("{\"n\":" + n + "}").status()).isEqualTo(200);
        }
        long newest = start + 3 * RING - 1;
        Await.until(() -> b.lastId() == newest, Duration.ofSeconds(10), "B read every event");
        long readsBefore = b.admin().count("events.redis.history.reads");

        Answer old = HTTP.get(b.url("/events?after=" + start + "&timeout=10"));
        assertThat(old.status()).isEqualTo(200);
        assertThat(old.json().get("missed").asBoolean()).isFalse();
        assertThat(ids(old)).containsExactlyElementsOf(range(start + 1, start + RING));
        assertThat(old.json().get("lastId").asLong()).isEqualTo(start + RING);
        assertThat(b.admin().count("events.redis.history.reads")).isEqualTo(readsBefore + 1);

        commands.xtrim(STREAM, 10); // exact trim: the stream keeps its newest 10 entries
        Answer trimmed = HTTP.get(b.url("/events?after=" + start + "&timeout=10"));
        assertThat(trimmed.json().get("missed").asBoolean()).isTrue();
        assertThat(ids(trimmed)).containsExactlyElementsOf(range(newest - 9, newest));

        // Today's contract for a cursor above the newest id: at once, missed, continue from the newest id.
        Answer beyond = HTTP.get(b.url("/events?after=" + (newest + 1000) + "&timeout=10"));
        assertThat(beyond.status()).isEqualTo(200);
        assertThat(beyond.json().get("missed").asBoolean()).isTrue();
        assertThat(beyond.json().get("lastId").asLong()).isEqualTo(newest);
        assertThat(beyond.latencyMs()).isLessThan(5_000);
    }

    @Test
    void aCursorNumberedButNotYetReadHereWaitsForTheNextEventInsteadOfBeingMissed() throws Exception {
        Await.until(() -> a.lastId() == b.lastId(), Duration.ofSeconds(10), "both instances caught up");
        // The counter moves on as if another instance had numbered an event that B's reader has not delivered yet.
        long numbered = commands.incr(COUNTER);
        CompletableFuture<Answer> ahead = HTTP.getAsync(b.url("/events?after=" + numbered + "&timeout=30"));
        Await.until(() -> b.admin().gauge("events.parked") == 1, Duration.ofSeconds(10), "the poll ahead of B parked");

        long next = a.publish("{\"after\":\"the gap\"}").json().get("id").asLong();
        assertThat(next).isEqualTo(numbered + 1);
        Answer answer = ahead.get(10, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("missed").asBoolean()).isFalse();
        assertThat(ids(answer)).containsExactly(next);
        assertThat(b.admin().gauge("events.parked")).isZero();
    }

    private static List<Long> ids(Answer answer) {
        List<Long> ids = new ArrayList<>();
        answer.json().get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }

    private static List<Long> range(long from, long to) {
        return LongStream.rangeClosed(from, to).boxed().toList();
    }

    /**
     * Polls one of {@code on} (a random one per poll) from {@code cursor}, following lastId, until it has seen
     * {@code end}; returns every id seen, in order.
     */
    private static List<Long> follow(List<ServiceInstance> on, long cursor, long end) {
        List<Long> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int polls = 0;
        while (cursor < end && System.nanoTime() < deadline) {
            ServiceInstance instance = on.get(polls++ % on.size()); // every instance in turn: the same path every run
            Answer answer = HTTP.get(instance.url("/events?after=" + cursor + "&timeout=10"));
            if (answer.status() == 204) {
                continue;
            }
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.json().get("missed").asBoolean()).as("missed").isFalse();
            for (JsonNode event : answer.json().get("events")) {
                seen.add(event.get("id").asLong());
            }
            cursor = answer.json().get("lastId").asLong();
        }
        return seen;
    }
}
