package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Topics on two instances sharing a real three-master Redis Cluster: ids numbered per topic across instances for topics
 * on each master, each topic's events reach followers on either instance once and in order, a poll of several topics
 * spans the masters, an instance subscribes only to the topics it has polls on (and unsubscribes when they go idle),
 * and a cursor the stream trimmed is answered {@code missed}.
 */
class RedisClusterTopicsTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final String KEY = "cluster-topics";
    private static TestRedisCluster cluster;
    private static ServiceInstance a;
    private static ServiceInstance b;

    @BeforeAll
    static void startClusterAndTwoInstances() throws Exception {
        cluster = TestRedisCluster.startOrSkip();
        a = instance(cluster, KEY).startHealthy();
        b = instance(cluster, KEY).startHealthy();
    }

    /** An instance on {@code cluster} with stream prefix {@code key}, topics forgotten after 2 s idle. */
    static ServiceInstance instance(TestRedisCluster cluster, String key) {
        return new ServiceInstance(HTTP, cluster.uris(), key, "events.stream.redis.cluster", "true",
                "events.topicIdleTimeout", "2s");
    }

    @AfterAll
    static void stopAll() {
        Stopping.closeAll(b, a, cluster, HTTP);
    }

    @Test
    void topicsOnEveryMasterAreNumberedPerTopicAcrossInstancesAndFollowedInOrderOnEither() throws Exception {
        List<String> topics = List.of(TestRedisCluster.topicOn(0, KEY, "order"), TestRedisCluster.topicOn(1, KEY, "order"),
                TestRedisCluster.topicOn(2, KEY, "order"));
        int events = 20;
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            List<Future<List<Long>>> followers = new ArrayList<>();
            for (String topic : topics) {
                for (ServiceInstance follower : List.of(a, b)) {
                    followers.add(threads.submit(() -> follow(follower, topic, events)));
                }
            }
            Await.until(() -> a.admin().gauge("events.parked") == 3 && b.admin().gauge("events.parked") == 3,
                    Duration.ofSeconds(20), "three followers parked on each instance");

            for (int n = 0; n < events; n++) {
                for (String topic : topics) {
                    ServiceInstance publisher = n % 2 == 0 ? a : b;
                    assertThat(publish(publisher, topic, "{\"n\":" + n + "}").get("id").asLong())
                            .as("ids +1 per topic whichever instance publishes").isEqualTo(n + 1);
                }
            }
            for (Future<List<Long>> follower : followers) {
                assertThat(follower.get(60, TimeUnit.SECONDS)).containsExactlyElementsOf(range(1, events));
            }
        } finally {
            threads.shutdownNow();
        }
        assertThat(a.admin().count("events.redis.reader.gaps") + b.admin().count("events.redis.reader.gaps")).isZero();
        for (String topic : topics) { // the rings learnt each stream's epoch from the shard channels' announcements
            String onA = HTTP.get(a.url("/events?topic=" + topic + "&after=0&timeout=5")).json().get("epoch").asText();
            assertThat(onA).as(topic).matches("[0-9]{16,}");
            assertThat(HTTP.get(b.url("/events?topic=" + topic + "&after=0&timeout=5")).json().get("epoch").asText()).isEqualTo(onA);
        }
    }

    @Test
    void aPollOfTopicsOnThreeMastersIsAnsweredByAnEventOnAnyOfThem() throws Exception {
        String first = TestRedisCluster.topicOn(0, KEY, "span");
        String second = TestRedisCluster.topicOn(1, KEY, "span");
        String third = TestRedisCluster.topicOn(2, KEY, "span");
        CompletableFuture<Answer> poll = HTTP.getAsync(b.url("/events?topic=" + first + ":0&topic=" + second + ":0&topic="
                + third + ":0&timeout=30"));
        Await.until(() -> b.admin().gauge("events.parked") == 1, Duration.ofSeconds(20), "the poll parked on B");
        Await.until(() -> subscribers(third) == 1, Duration.ofSeconds(20), "B subscribed to the third topic's channel");

        long id = publish(a, third, "\"hello\"").get("id").asLong();

        JsonNode answer = poll.get(20, TimeUnit.SECONDS).json();
        assertThat(ids(answer)).containsExactly(id);
        assertThat(answer.get("cursors").get(third).asLong()).isEqualTo(id);
        assertThat(answer.get("cursors").get(first).asLong()).isZero();

        publish(a, first, "1");
        publish(a, second, "2");
        JsonNode all = HTTP.get(b.url("/events?topic=" + first + ":0&topic=" + second + ":0&topic=" + third + ":0&timeout=5")).json();
        assertThat(all.get("cursors").get(first).asLong()).isEqualTo(1);
        assertThat(all.get("cursors").get(second).asLong()).isEqualTo(1);
        assertThat(all.get("cursors").get(third).asLong()).isEqualTo(1);
    }

    @Test
    void anInstanceSubscribesOnlyToTheTopicsItHasPollsOnAndUnsubscribesIdleOnes() throws Exception {
        String topic = TestRedisCluster.topicOn(1, KEY, "interest");
        assertThat(subscribers(topic)).isZero();

        CompletableFuture<Answer> onA = HTTP.getAsync(a.url("/events?topic=" + topic + ":0&timeout=30"));
        Await.until(() -> subscribers(topic) == 1, Duration.ofSeconds(20), "A subscribed to the topic's channel");
        assertThat(b.admin().gauge("events.redis.reader.topics")).as("B has no poll on it").isEqualTo(1);

        CompletableFuture<Answer> onB = HTTP.getAsync(b.url("/events?topic=" + topic + ":0&timeout=30"));
        Await.until(() -> subscribers(topic) == 2, Duration.ofSeconds(20), "both subscribed");
        publish(a, topic, "1");
        assertThat(ids(onA.get(20, TimeUnit.SECONDS).json())).containsExactly(1L);
        assertThat(ids(onB.get(20, TimeUnit.SECONDS).json())).containsExactly(1L);

        Await.until(() -> subscribers(topic) == 0, Duration.ofSeconds(30), "both unsubscribed once the topic was idle for 2 s");
        Await.until(() -> a.admin().gauge("events.redis.reader.topics") == 1 && b.admin().gauge("events.redis.reader.topics") == 1,
                Duration.ofSeconds(30), "both instances back to the default topic");
    }

    @Test
    void aCursorTheStreamTrimmedIsAnsweredMissedWithWhatTheStreamKept() {
        String topic = TestRedisCluster.topicOn(2, KEY, "trimmed");
        for (int n = 1; n <= 5; n++) {
            publish(a, topic, Integer.toString(n));
        }
        String stream = new TopicKeys(KEY).stream(topic);
        cluster.on(2, redis -> redis.xtrim(stream, 2)); // exact: the stream keeps ids 4 and 5

        JsonNode fromB = HTTP.get(b.url("/events?topic=" + topic + ":1&timeout=5")).json();
        assertThat(fromB.get("missed").asBoolean()).isTrue();
        assertThat(ids(fromB)).containsExactly(4L, 5L);
        JsonNode current = HTTP.get(b.url("/events?topic=" + topic + ":3&timeout=5")).json();
        assertThat(current.get("missed").asBoolean()).isFalse();
        assertThat(ids(current)).containsExactly(4L, 5L);
    }

    /** Instances subscribed to {@code topic}'s shard channel, asked of the master that holds it. */
    private static long subscribers(String topic) {
        String channel = new TopicKeys(KEY).stream(topic);
        return cluster.on(TestRedisCluster.masterOf(KEY, topic), redis -> redis.pubsubShardNumsub(channel).get(channel));
    }

    /** Follows {@code topic} on {@code instance} from 0 until it has {@code events} ids (bounded by 60 s). */
    static List<Long> follow(ServiceInstance instance, String topic, int events) {
        List<Long> seen = new ArrayList<>();
        long cursor = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (seen.size() < events && System.nanoTime() < deadline) {
            Answer answer = HTTP.get(instance.url("/events?topic=" + topic + ":" + cursor + "&timeout=10"));
            if (answer.status() == 200) {
                answer.json().get("events").forEach(event -> seen.add(event.get("id").asLong()));
                JsonNode cursors = answer.json().get("cursors");
                cursor = cursors == null ? answer.json().get("lastId").asLong() : cursors.get(topic).asLong();
            }
        }
        return seen;
    }

    static JsonNode publish(ServiceInstance instance, String topic, String json) {
        Answer answer = HTTP.postJson(instance.url("/events?topic=" + topic), json);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer.json();
    }

    static List<Long> ids(JsonNode answer) {
        List<Long> ids = new ArrayList<>();
        answer.get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }

    static List<Long> range(long first, long last) {
        return LongStream.rangeClosed(first, last).boxed().toList();
    }
}
