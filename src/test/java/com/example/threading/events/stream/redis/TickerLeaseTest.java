package com.example.threading.events.stream.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link TickerLease} on a real Redis: one holder at a time, renewed by its holder, released, expired when not renewed. */
class TickerLeaseTest {

    private static TestRedis redis;
    private static RedisClient client;
    private static StatefulRedisConnection<String, String> connection;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.startOrSkip();
        client = RedisClient.create(redis.uri());
        connection = client.connect();
    }

    @AfterAll
    static void stopRedis() {
        if (connection != null) {
            connection.close();
            client.shutdown();
        }
        if (redis != null) {
            redis.close();
        }
    }

    @Test
    void oneHolderAtATimeUntilItReleases() throws Exception {
        TickerLease first = new TickerLease(connection::async, "lease-test:one", "first", 60_000);
        TickerLease second = new TickerLease(connection::async, "lease-test:one", "second", 60_000);

        assertThat(mayTick(first)).isTrue();
        assertThat(mayTick(second)).isFalse();
        assertThat(mayTick(first)).as("renewed by its holder").isTrue();
        assertThat(first.leader() + second.leader()).isEqualTo(1);

        first.release();

        assertThat(first.leader()).isZero();
        assertThat(mayTick(second)).isTrue();
        assertThat(mayTick(first)).isFalse();
    }

    @Test
    void aLeaseNotRenewedExpiresForTheNext() {
        TickerLease silent = new TickerLease(connection::async, "lease-test:two", "silent", 100); // 3 periods: 300 ms
        TickerLease next = new TickerLease(connection::async, "lease-test:two", "next", 100);
        assertThat(mayTick(silent)).isTrue();

        Await.until(() -> mayTick(next), Duration.ofSeconds(10), "the lease expired and the next instance took it");
        assertThat(connection.sync().pttl("lease-test:two")).isBetween(1L, 3 * 100L);
    }

    @Test
    void withoutAConnectionNobodyTicks() {
        TickerLease disconnected = new TickerLease(() -> null, "lease-test:three", "nobody", 100);

        assertThat(disconnected.mayTick().toCompletableFuture()).isCompletedExceptionally();
        assertThat(disconnected.leader()).isZero();
    }

    private static boolean mayTick(TickerLease lease) {
        try {
            return lease.mayTick().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
