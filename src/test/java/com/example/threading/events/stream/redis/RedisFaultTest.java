package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Faults on a real Redis: Redis stopped and started again under parked polls, the reader's connection cut while
 * events are published, and Redis down when the service starts.
 */
class RedisFaultTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    private final List<AutoCloseable> started = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (int i = started.size() - 1; i >= 0; i--) {
            try {
                started.get(i).close();
            } catch (Exception ignored) {
                // best effort: the next one must still be stopped
            }
        }
    }

    @Test
    void redisStoppedAndStartedUnderParkedPolls() throws Exception {
        TestRedis redis = started(TestRedis.startOrSkip());
        ServiceInstance a = started(new ServiceInstance(HTTP, redis.uri(), "fault-test").startHealthy());
        long cursor = a.publish("{\"before\":\"stop\"}").json().get("id").asLong();
        Await.until(() -> a.lastId() == cursor, Duration.ofSeconds(10), "the first event read");

        List<CompletableFuture<Answer>> parked = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            parked.add(HTTP.getAsync(a.url("/events?after=" + cursor + "&timeout=40")));
        }
        CompletableFuture<Answer> shortPoll = HTTP.getAsync(a.url("/events?after=" + cursor + "&timeout=2"));
        Await.until(() -> a.admin().gauge("events.parked") == 21, Duration.ofSeconds(10), "21 polls parked");
        long failuresBefore = a.admin().count("events.publish.failures");
        long reconnectsBefore = a.admin().count("events.redis.reader.reconnects");

        redis.stop();
        a.awaitHealthy(false, Duration.ofSeconds(5));
        // The load balancer's probe on the application port says so too, within the verdict's max age (1 s), and names
        // only the check, not its message.
        Await.until(() -> HTTP.get(a.url("/ready")).status() == 503, Duration.ofSeconds(5), "/ready says not ready");
        Answer notReady = HTTP.get(a.url("/ready"));
        assertThat(notReady.status()).isEqualTo(503);
        assertThat(notReady.json().get("message").asText()).isEqualTo("not ready: " + RedisEventStream.HEALTH_CHECK);

        Answer refused = a.publish("{\"while\":\"down\"}");
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.header("Retry-After")).isEqualTo("1");
        assertThat(refused.json().get("code").asInt()).isEqualTo(503);
        assertThat(refused.latencyMs()).as("503 within about a second").isLessThan(3_000);
        assertThat(a.admin().count("events.publish.failures")).isEqualTo(failuresBefore + 1);
        assertThat(a.admin().count("events.redis.publish.failures")).isGreaterThanOrEqualTo(1);

        // The parked polls stay parked; the short one ends normally at its timeout.
        Answer timedOut = shortPoll.get(10, TimeUnit.SECONDS);
        assertThat(timedOut.status()).isEqualTo(204);
        assertThat(parked).noneMatch(CompletableFuture::isDone);
        assertThat(a.admin().gauge("events.parked")).isEqualTo(20);

        redis.start();
        a.awaitHealthy(true, Duration.ofSeconds(15));
        Await.until(() -> HTTP.get(a.url("/ready")).status() == 200, Duration.ofSeconds(5), "/ready says ready again");
        assertThat(a.admin().count("events.redis.reader.reconnects")).isGreaterThan(reconnectsBefore);

        Answer published = a.publish("{\"after\":\"restart\"}");
        assertThat(published.status()).isEqualTo(200);
        long id = published.json().get("id").asLong();
        assertThat(id).as("ids go on after a Redis restart with AOF").isEqualTo(cursor + 1);
        for (CompletableFuture<Answer> poll : parked) {
            Answer answer = poll.get(10, TimeUnit.SECONDS);
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.json().get("events").get(0).get("id").asLong()).isEqualTo(id);
        }
        assertThat(a.admin().gauge("events.parked")).isZero();
    }

    @Test
    void aReaderCutOffResumesFromItsLastIdAndLosesNothing() throws Exception {
        TestRedis redis = started(TestRedis.startOrSkip());
        ServiceInstance a = started(new ServiceInstance(HTTP, redis.uri(), "cut-test").startHealthy());
        ServiceInstance b = started(new ServiceInstance(HTTP, redis.uri(), "cut-test").startHealthy());
        long cursor = a.publish("{\"n\":0}").json().get("id").asLong();
        Await.until(() -> b.lastId() == cursor, Duration.ofSeconds(10), "B read the first event");
        CompletableFuture<Answer> follower = HTTP.getAsync(b.url("/events?after=" + cursor + "&timeout=30"));
        Await.until(() -> b.admin().gauge("events.parked") == 1, Duration.ofSeconds(10), "a follower parked on B");
        long reconnectsBefore = b.admin().count("events.redis.reader.reconnects");

        RedisClient client = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> admin = client.connect()) {
            // Cut every blocked XREAD (both instances' readers), then publish at once, while they are cut off.
            List<String> readers = admin.sync().clientList().lines().filter(line -> line.contains("cmd=xread")).toList();
            assertThat(readers).hasSize(2);
            for (String reader : readers) {
                admin.sync().clientKill(io.lettuce.core.KillArgs.Builder.id(Long.parseLong(field(reader, "id"))));
            }
            for (int n = 1; n <= 5; n++) {
                assertThat(a.publish("{\"n\":" + n + "}").status()).isEqualTo(200);
            }
        } finally {
            client.shutdown();
        }

        List<Long> seen = new ArrayList<>();
        Answer first = follower.get(15, TimeUnit.SECONDS);
        first.json().get("events").forEach(event -> seen.add(event.get("id").asLong()));
        long next = first.json().get("lastId").asLong();
        while (next < cursor + 5) {
            Answer more = HTTP.get(b.url("/events?after=" + next + "&timeout=10"));
            more.json().get("events").forEach(event -> seen.add(event.get("id").asLong()));
            next = more.json().get("lastId").asLong();
        }
        assertThat(seen).containsExactly(cursor + 1, cursor + 2, cursor + 3, cursor + 4, cursor + 5);
        assertThat(b.admin().count("events.redis.reader.reconnects")).isGreaterThan(reconnectsBefore);
        Await.until(() -> b.admin().gauge("events.redis.reader.lag") == 0, Duration.ofSeconds(10), "B's reader caught up");
    }

    @Test
    void aServiceStartedWhileRedisIsDownStartsUnhealthyAndRecovers() throws Exception {
        TestRedis redis = started(TestRedis.startOrSkip());
        redis.stop();
        ServiceInstance a = started(new ServiceInstance(HTTP, redis.uri(), "late-test").start());
        a.awaitHealthy(false, Duration.ofSeconds(5));
        Answer refused = a.publish("{\"too\":\"early\"}");
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.latencyMs()).isLessThan(3_000);
        CompletableFuture<Answer> parked = HTTP.getAsync(a.url("/events?timeout=30"));
        Await.until(() -> a.admin().gauge("events.parked") == 1, Duration.ofSeconds(10), "a poll parked while Redis is down");

        redis.start();
        a.awaitHealthy(true, Duration.ofSeconds(15));
        Answer published = a.publish("{\"now\":\"up\"}");
        assertThat(published.status()).isEqualTo(200);
        Answer answer = parked.get(10, TimeUnit.SECONDS);
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.json().get("events").get(0).get("id").asLong()).isEqualTo(published.json().get("id").asLong());
    }

    private <T extends AutoCloseable> T started(T closeable) {
        started.add(closeable);
        return closeable;
    }

    private static String field(String clientListLine, String name) {
        for (String pair : clientListLine.split(" ")) {
            if (pair.startsWith(name + "=")) {
                return pair.substring(name.length() + 1);
            }
        }
        throw new AssertionError("no " + name + " in " + clientListLine);
    }
}
