package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.example.threading.testing.LoopbackHttp.Answer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** An instance killed with SIGKILL and started again: the ids go on, and the instance that stayed up lost nothing. */
class RedisKillTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final List<AutoCloseable> STARTED = new ArrayList<>();

    @AfterAll
    static void stopAll() {
        for (int i = STARTED.size() - 1; i >= 0; i--) {
            try {
                STARTED.get(i).close();
            } catch (Exception ignored) {
                // best effort: the next one must still be stopped
            }
        }
        HTTP.close();
    }

    @Test
    void anInstanceKilledWithSigkillAndRestartedContinuesTheIds() throws Exception {
        TestRedis redis = started(TestRedis.startOrSkip());
        ServiceInstance stays = started(new ServiceInstance(HTTP, redis.uri(), "kill-test").startHealthy());
        ChildService killed = started(new ChildService(HTTP, "redis-kill-test-child", redis.uri(), "kill-test")).startHealthy();

        long first = publish(killed.url("/events"), 1);
        publish(killed.url("/events"), 2);
        long pid = killed.pid();
        killed.kill();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();

        long whileDead = publish(stays.url("/events"), 3);
        assertThat(whileDead).isEqualTo(first + 2);

        killed.startHealthy();
        long afterRestart = publish(killed.url("/events"), 4);
        assertThat(afterRestart).as("the restarted instance continues the ids").isEqualTo(first + 3);

        // The restarted instance answers a cursor from before its death (from its prefilled ring), and the instance
        // that stayed up saw every event once, in order.
        Answer resumed = HTTP.get(killed.url("/events?after=" + first + "&timeout=10"));
        assertThat(ids(resumed)).containsExactly(first + 1, first + 2, first + 3);
        Await.until(() -> stays.lastId() == afterRestart, Duration.ofSeconds(10), "the surviving instance read everything");
        Answer all = HTTP.get(stays.url("/events?after=" + (first - 1) + "&timeout=10"));
        assertThat(ids(all)).containsExactly(first, first + 1, first + 2, first + 3);
        assertThat(all.json().get("missed").asBoolean()).isFalse();
    }

    private static long publish(String url, int n) {
        Answer answer = HTTP.postJson(url, "{\"n\":" + n + "}");
        assertThat(answer.status()).isEqualTo(200);
        return answer.json().get("id").asLong();
    }

    private static List<Long> ids(Answer answer) {
        List<Long> ids = new ArrayList<>();
        answer.json().get("events").forEach(event -> ids.add(event.get("id").asLong()));
        return ids;
    }

    private static <T extends AutoCloseable> T started(T closeable) {
        STARTED.add(closeable);
        return closeable;
    }
}
