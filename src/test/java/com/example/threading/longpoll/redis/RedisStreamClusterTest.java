package com.example.threading.longpoll.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Two service instances on one real Redis: an event published on either reaches the polls of both, numbered once. */
class RedisStreamClusterTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static TestRedis redis;
    private static ServiceInstance a;
    private static ServiceInstance b;

    @BeforeAll
    static void startRedisAndTwoInstances() throws Exception {
        redis = TestRedis.startOrSkip();
        a = new ServiceInstance(HTTP, redis.uri(), "cluster-test").startHealthy();
        b = new ServiceInstance(HTTP, redis.uri(), "cluster-test").startHealthy();
    }

    @AfterAll
    static void stopAll() {
        for (AutoCloseable closeable : new AutoCloseable[] {a, b, redis, HTTP}) {
            try {
                if (closeable != null) {
                    closeable.close();
                }
            } catch (Exception ignored) {
                // best effort: the next one must still be stopped
            }
        }
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
            List<Future<List<Long>>> followers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                ServiceInstance on = i % 2 == 0 ? a : b;
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

    /** Polls {@code on} from {@code cursor}, following lastId, until it has seen {@code end}; returns every id seen, in order. */
    private static List<Long> follow(ServiceInstance on, long cursor, long end) {
        List<Long> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (cursor < end && System.nanoTime() < deadline) {
            Answer answer = HTTP.get(on.url("/events?after=" + cursor + "&timeout=10"));
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
