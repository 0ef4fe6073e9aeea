package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Topics on two instances sharing one Redis: ids numbered per topic across instances, each topic's events reach a
 * follower on either instance once and in order, a poll of several topics spans both, and an instance reads only the
 * topics it has polls on (and forgets them when they go idle).
 */
class RedisTopicsTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static TestRedis redis;
    private static ServiceInstance a;
    private static ServiceInstance b;

    @BeforeAll
    static void startRedisAndTwoInstances() throws Exception {
        redis = TestRedis.startOrSkip();
        a = new ServiceInstance(HTTP, redis.uri(), "topics-test", "events.topicIdleTimeout", "2s").startHealthy();
        b = new ServiceInstance(HTTP, redis.uri(), "topics-test", "events.topicIdleTimeout", "2s").startHealthy();
    }

    @AfterAll
    static void stopAll() {
        Stopping.closeAll(b, a, redis, HTTP);
    }

    @Test
    void idsArePerTopicAcrossInstancesAndFollowersOnEitherSeeEachTopicInOrder() throws Exception {
        List<Long> roomIds = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ServiceInstance publisher = i % 2 == 0 ? a : b;
            roomIds.add(publish(publisher, "room-1", "{\"n\":" + i + "}").get("id").asLong());
            assertThat(publish(publisher, "room-2", "{\"n\":" + i + "}").get("id").asLong()).isEqualTo(i + 1);
        }
        assertThat(roomIds).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);

        for (ServiceInstance follower : List.of(a, b)) {
            JsonNode answer = HTTP.get(follower.url("/events?topic=room-1:0&timeout=5")).json();
            assertThat(ids(answer)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
            assertThat(answer.get("events")).allSatisfy(event -> assertThat(event.get("topic").asText()).isEqualTo("room-1"));
        }
    }

    @Test
    void aPollParkedOnOneInstanceIsAnsweredByAnEventPublishedOnTheOther() throws Exception {
        CompletableFuture<Answer> poll = HTTP.getAsync(b.url("/events?topic=cross:0&topic=other:0&timeout=30"));
        Await.until(() -> b.admin().gauge("events.parked") == 1, Duration.ofSeconds(20), "the poll parked on B");
        Await.until(() -> b.admin().gauge("events.redis.reader.topics") >= 3, Duration.ofSeconds(20), "B reading cross and other");

        long id = publish(a, "cross", "\"hello\"").get("id").asLong();

        JsonNode answer = poll.get(20, TimeUnit.SECONDS).json();
        assertThat(ids(answer)).containsExactly(id);
        assertThat(answer.get("cursors").get("cross").asLong()).isEqualTo(id);
        assertThat(answer.get("cursors").get("other").asLong()).isZero();
    }

    @Test
    void anInstanceReadsOnlyTheTopicsItHoldsAndForgetsIdleOnes() {
        Await.until(() -> a.admin().gauge("events.redis.reader.topics") == 1 && b.admin().gauge("events.redis.reader.topics") == 1,
                Duration.ofSeconds(30), "both instances back to the default topic (others idle for 2 s)");

        publish(a, "only-on-a", "1");

        assertThat(a.admin().gauge("events.redis.reader.topics")).isEqualTo(2);
        assertThat(b.admin().gauge("events.redis.reader.topics")).as("B has no poll on it: it does not read it").isEqualTo(1);
        JsonNode fromB = HTTP.get(b.url("/events?topic=only-on-a:0&timeout=5")).json();
        assertThat(ids(fromB)).as("B answers from the stream all the same").containsExactly(1L);
        Await.until(() -> a.admin().gauge("events.redis.reader.topics") == 1 && b.admin().gauge("events.redis.reader.topics") == 1,
                Duration.ofSeconds(30), "the topic forgotten again once idle");
    }

    @Test
    void answersNameTheStreamsEpochAndACursorOfAnotherIsAnsweredMissedAtOnce() {
        publish(a, "epoch-1", "1");
        publish(b, "epoch-1", "2");
        JsonNode first = HTTP.get(b.url("/events?topic=epoch-1&after=0&timeout=5")).json();
        String epoch = first.get("epoch").asText();
        assertThat(epoch).as("made by Redis when the stream was created").matches("[0-9]{16,}");
        assertThat(HTTP.get(a.url("/events?topic=epoch-1&after=0&timeout=5")).json().get("epoch").asText())
                .as("one stream, one epoch on every instance").isEqualTo(epoch);

        JsonNode other = HTTP.get(a.url("/events?topic=epoch-1&after=1&epoch=1700000000000000&timeout=5")).json();
        assertThat(other.get("missed").asBoolean()).isTrue();
        assertThat(ids(other)).as("never events of another history").isEmpty();
        assertThat(other.get("lastId").asLong()).isEqualTo(2);
        assertThat(other.get("epoch").asText()).isEqualTo(epoch);
    }

    @Test
    void aStreamRedisLostIsRecreatedInANewEpochAndThePollsParkedOnItAreToldSo() throws Exception {
        publish(a, "epoch-2", "1");
        publish(a, "epoch-2", "2");
        String before = HTTP.get(a.url("/events?topic=epoch-2&after=0&timeout=5")).json().get("epoch").asText();
        CompletableFuture<Answer> parked = HTTP.getAsync(a.url("/events?topic=epoch-2&after=2&epoch=" + before + "&timeout=30"));
        // The blocking twin waits on the same ring, on a thread of its own.
        CompletableFuture<Answer> blocked = HTTP.getAsync(a.url("/events/blocking?topic=epoch-2&after=2&epoch=" + before + "&timeout=30"));
        Await.until(() -> a.admin().gauge("events.parked") == 1, Duration.ofSeconds(20), "the poll parked on A");
        Await.until(() -> a.admin().gauge("events.blocking.waiting") == 1 || blocked.isDone(), Duration.ofSeconds(20),
                "a thread waiting on A");
        // Once seen failing in CI (the gauge never reached 1): if the twin was answered before any event, say with what.
        assertThat(blocked).as("the blocking twin answered before any event: %s",
                blocked.isDone() ? blocked.join().status() + " " + blocked.join().body() : "").isNotDone();

        TopicKeys keys = new TopicKeys("topics-test");
        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            assertThat(connection.sync().del(keys.scriptKeys("epoch-2"))).as("stream, counter and epoch").isEqualTo(3);
        } finally {
            client.shutdown();
        }
        long restartsBefore = a.admin().count("events.epoch-restarts");
        long id = publish(a, "epoch-2", "3").get("id").asLong();

        JsonNode told = parked.get(20, TimeUnit.SECONDS).json();
        String after = told.get("epoch").asText();
        assertThat(after).isNotEqualTo(before);
        assertThat(told.get("missed").asBoolean()).as("event %d is not the one after 2 of the lost history", id).isTrue();
        assertThat(ids(told)).containsExactly(id);
        assertThat(a.admin().count("events.epoch-restarts")).isEqualTo(restartsBefore + 1);
        JsonNode waited = blocked.get(20, TimeUnit.SECONDS).json();
        assertThat(waited.get("missed").asBoolean()).as("the blocking twin is told too").isTrue();
        assertThat(ids(waited)).containsExactly(id);
        assertThat(waited.get("epoch").asText()).isEqualTo(after);
        JsonNode late = HTTP.get(b.url("/events?topic=epoch-2&after=2&epoch=" + before + "&timeout=5")).json();
        assertThat(late.get("missed").asBoolean()).isTrue();
        assertThat(ids(late)).isEmpty();
        assertThat(late.get("epoch").asText()).isEqualTo(after);
    }

    private static JsonNode publish(ServiceInstance instance, String topic, String json) {
        Answer answer = HTTP.postJson(instance.url("/events?topic=" + topic), json);
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer.json();
    }

    private static List<Long> ids(JsonNode answer) {
        List<Long> ids = new ArrayList<>();
        answer.get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }
}
