package com.example.threading.events.stream.redis;

import static com.example.threading.events.stream.redis.RedisClusterTopicsTest.ids;
import static com.example.threading.events.stream.redis.RedisClusterTopicsTest.publish;
import static com.example.threading.events.stream.redis.RedisClusterTopicsTest.range;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import com.fasterxml.jackson.databind.JsonNode;
import io.lettuce.core.ClientListArgs;
import io.lettuce.core.KillArgs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Faults on a real three-master Redis Cluster under two instances: one master stopped (publishes to its topics
 * {@code 503}, the others go on, the health check says which master is missing) and started again (its topics recover
 * with nothing lost that its stream kept, parked polls answered); and the instances' subscriptions to one master cut
 * while events are published there (they arrive all the same, read from the stream).
 */
class RedisClusterFaultTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final String KEY = "cluster-faults";
    private static TestRedisCluster cluster;
    private static ServiceInstance a;
    private static ServiceInstance b;

    @BeforeAll
    static void startClusterAndTwoInstances() throws Exception {
        cluster = TestRedisCluster.startOrSkip();
        a = RedisClusterTopicsTest.instance(cluster, KEY).startHealthy();
        b = RedisClusterTopicsTest.instance(cluster, KEY).startHealthy();
    }

    @AfterAll
    static void stopAll() {
        Stopping.closeAll(b, a, cluster, HTTP);
    }

    @Test
    void aMasterStoppedAnswersItsTopics503WhileTheOthersGoOnAndRecoversWithNothingLost() throws Exception {
        String down = TestRedisCluster.topicOn(1, KEY, "down");
        String up = TestRedisCluster.topicOn(0, KEY, "up");
        for (int n = 1; n <= 3; n++) {
            publish(a, down, Integer.toString(n));
        }
        CompletableFuture<Answer> parkedOnDown = HTTP.getAsync(b.url("/events?topic=" + down + ":3&timeout=60"));
        CompletableFuture<Answer> parkedOnUp = HTTP.getAsync(b.url("/events?topic=" + up + ":0&timeout=60"));
        Await.until(() -> b.admin().gauge("events.parked") == 2, Duration.ofSeconds(20), "two polls parked on B");
        long reconnectsBefore = b.admin().count("events.redis.reader.reconnects");

        cluster.stop(1);
        for (ServiceInstance instance : List.of(a, b)) {
            Await.until(() -> instance.admin().gauge("events.redis.cluster.masters.unreachable") == 1, Duration.ofSeconds(15),
                    "the instance sees one master unreachable");
        }
        Answer refused = HTTP.postJson(a.url("/events?topic=" + down), "4");
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.latencyMs()).as("503 within about the command timeout").isLessThan(3_000);
        // The other masters' topics go on, and so does the instance: it stays in the balancer.
        long upId = publish(a, up, "\"still\"").get("id").asLong();
        assertThat(ids(parkedOnUp.get(20, TimeUnit.SECONDS).json())).containsExactly(upId);
        JsonNode health = a.admin().healthcheck().json().get(RedisEventStream.HEALTH_CHECK);
        assertThat(health.get("healthy").asBoolean()).isTrue();
        assertThat(health.get("message").asText()).startsWith("DEGRADED: 1 of 3 masters unreachable")
                .contains("127.0.0.1:" + cluster.port(1));
        assertThat(HTTP.get(a.url("/ready")).status()).isEqualTo(200);
        assertThat(parkedOnDown).isNotDone();

        cluster.start(1);
        cluster.awaitClusterOk();
        for (ServiceInstance instance : List.of(a, b)) {
            try {
                Await.until(() -> instance.admin().gauge("events.redis.cluster.masters.unreachable") == 0, Duration.ofSeconds(30),
                        "the instance reaches every master again");
            } catch (AssertionError stillUnreachable) { // say what the instance says of its masters
                throw new AssertionError(stillUnreachable.getMessage() + "; its health check: "
                        + instance.admin().healthcheck().json().get(RedisEventStream.HEALTH_CHECK), stillUnreachable);
            }
        }
        Answer published = Await.until(() -> HTTP.postJson(b.url("/events?topic=" + down), "4"), answer -> answer.status() == 200,
                Duration.ofSeconds(20), "a publish to the restarted master's topic taken");
        assertThat(published.json().get("id").asLong()).as("ids go on: the master kept its counter (AOF)").isEqualTo(4);
        assertThat(ids(parkedOnDown.get(20, TimeUnit.SECONDS).json())).containsExactly(4L);
        assertThat(b.admin().count("events.redis.reader.reconnects")).as("lost node connections counted").isGreaterThan(reconnectsBefore);
        for (ServiceInstance instance : List.of(a, b)) {
            JsonNode history = HTTP.get(instance.url("/events?topic=" + down + ":0&timeout=5")).json();
            assertThat(history.get("missed").asBoolean()).isFalse();
            assertThat(ids(history)).containsExactlyElementsOf(range(1, 4));
        }
        assertThat(a.admin().healthcheck().json().get(RedisEventStream.HEALTH_CHECK).get("message").asText()).doesNotContain("DEGRADED");
    }

    @Test
    void eventsPublishedWhileTheSubscriptionsToAMasterAreCutArriveFromTheStream() throws Exception {
        String topic = TestRedisCluster.topicOn(2, KEY, "cut");
        long cursor = publish(a, topic, "0").get("id").asLong();
        // A follower on each instance: a topic with a poll parked is never idle, so each instance stays subscribed on the
        // topic's master however long the waits below take (A's publish alone would be forgotten after topicIdleTimeout).
        CompletableFuture<Answer> followerOnA = HTTP.getAsync(a.url("/events?topic=" + topic + ":" + cursor + "&timeout=30"));
        CompletableFuture<Answer> follower = HTTP.getAsync(b.url("/events?topic=" + topic + ":" + cursor + "&timeout=30"));
        for (ServiceInstance instance : List.of(a, b)) {
            Await.until(() -> instance.admin().gauge("events.parked") == 1, Duration.ofSeconds(20), "a follower parked");
            Await.until(() -> instance.admin().gauge("events.redis.reader.lag") == 0, Duration.ofSeconds(20),
                    "the reader placed the topic");
        }

        // Both instances' pub/sub connections to that master are up (A's may still be reconnecting after the other test).
        Await.until(() -> pubsubClients(2) == 2, Duration.ofSeconds(20), "both instances subscribed on the topic's master");
        // Cut every pub/sub connection to that master (both instances'), then publish at once, while they reconnect.
        long killed = cluster.on(2, redis -> redis.clientKill(KillArgs.Builder.typePubsub()));
        assertThat(killed).isEqualTo(2);
        for (int n = 1; n <= 5; n++) {
            publish(a, topic, Integer.toString(n));
        }

        assertThat(followed(b, topic, cursor, follower)).containsExactlyElementsOf(range(cursor + 1, cursor + 5));
        assertThat(followed(a, topic, cursor, followerOnA)).containsExactlyElementsOf(range(cursor + 1, cursor + 5));
        for (ServiceInstance instance : List.of(a, b)) {
            Await.until(() -> instance.admin().gauge("events.redis.reader.lag") == 0, Duration.ofSeconds(10),
                    "the reader caught up");
        }
    }

    /** The ids of the five events after {@code cursor}: {@code first}'s, then polls on {@code instance} for the rest. */
    private static List<Long> followed(ServiceInstance instance, String topic, long cursor, CompletableFuture<Answer> first)
            throws Exception {
        List<Long> seen = new ArrayList<>(ids(first.get(20, TimeUnit.SECONDS).json()));
        while (seen.size() < 5) {
            Answer more = HTTP.get(instance.url("/events?topic=" + topic + ":" + (cursor + seen.size()) + "&timeout=10"));
            assertThat(more.status()).as("the instance delivers the rest").isEqualTo(200);
            seen.addAll(ids(more.json()));
        }
        return seen;
    }

    /** The pub/sub clients connected to master {@code index} (the kind {@code CLIENT KILL TYPE pubsub} ends). */
    private static long pubsubClients(int index) {
        String clients = cluster.on(index, redis -> redis.clientList(ClientListArgs.Builder.typePubsub()));
        return clients.lines().filter(line -> !line.isBlank()).count();
    }
}
