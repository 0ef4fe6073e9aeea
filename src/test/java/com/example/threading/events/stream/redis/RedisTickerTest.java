package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Two instances with their tickers on, on one Redis: one tick per period for the cluster, and a new leader when the leader stops. */
class RedisTickerTest {

    private static final LoopbackHttp HTTP = new LoopbackHttp();
    private static final long PERIOD_MS = 200;
    private static TestRedis redis;
    private static ServiceInstance a;
    private static ServiceInstance b;

    @BeforeAll
    static void startRedisAndTwoTickingInstances() throws Exception {
        redis = TestRedis.startOrSkip();
        a = new ServiceInstance(HTTP, redis.uri(), "ticker-test", "events.tickPeriod", PERIOD_MS + "ms").startHealthy();
        b = new ServiceInstance(HTTP, redis.uri(), "ticker-test", "events.tickPeriod", PERIOD_MS + "ms").startHealthy();
    }

    @AfterAll
    static void stopAll() {
        Stopping.closeAll(b, a, redis, HTTP);
    }

    @Test
    void oneInstanceTicksForTheClusterAndAnotherTakesOverWhenItStops() throws Exception {
        Await.until(() -> leader(a) + leader(b) == 1, Duration.ofSeconds(10), "exactly one leader");
        long before = a.lastId();
        Await.until(() -> a.lastId() >= before + 20, Duration.ofSeconds(60), "twenty ticks");
        // Each instance numbers its own ticks. One ticker gives consecutive numbers; a lease taken over (a renewal late
        // on a busy machine) starts another run; two tickers at once would interleave their runs at nearly every tick.
        JsonNode events = HTTP.get(a.url("/events?after=" + before + "&timeout=1")).json().get("events");
        List<Long> ticks = new ArrayList<>();
        events.forEach(event -> ticks.add(event.get("data").get("tick").asLong()));
        assertThat(ticks).hasSizeGreaterThanOrEqualTo(20);
        int breaks = 0;
        for (int i = 1; i < ticks.size(); i++) {
            breaks += ticks.get(i) == ticks.get(i - 1) + 1 ? 0 : 1;
        }
        assertThat(breaks).as("runs of consecutive tick numbers in %s", ticks).isLessThanOrEqualTo(3);
        assertThat(leader(a) + leader(b)).isEqualTo(1);

        ServiceInstance leading = leader(a) == 1 ? a : b;
        ServiceInstance other = leading == a ? b : a;
        leading.close(); // releases the lease on the way out
        Await.until(() -> leader(other) == 1, Duration.ofSeconds(5), "the other instance took the ticker over");
        long afterTakeOver = other.lastId();
        Await.until(() -> other.lastId() >= afterTakeOver + 3, Duration.ofSeconds(5), "ticks go on");
    }

    private static long leader(ServiceInstance instance) {
        return instance.admin().gauge("events.tick.leader");
    }
}
