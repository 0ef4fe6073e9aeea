package com.example.threading.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import com.example.threading.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link Readiness} on a clock the test moves: a verdict is kept for its max age, and no check ever runs twice at once. */
class ReadinessTest {

    private static final long MAX_AGE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final HealthCheckRegistry registry = new HealthCheckRegistry();
    private final AtomicLong nanos = new AtomicLong(1_000);
    private final AtomicInteger runs = new AtomicInteger();
    private final AtomicBoolean up = new AtomicBoolean(true);

    ReadinessTest() {
        registry.register("stream", new HealthCheck() {
            @Override
            protected Result check() {
                runs.incrementAndGet();
                return up.get() ? Result.healthy() : Result.unhealthy("down");
            }
        });
    }

    @Test
    void aVerdictAnswersUntilItIsMaxAgeOldThenTheChecksRunAgain() {
        Readiness readiness = new Readiness(registry, List.of("stream", "absent"), MAX_AGE_NANOS, nanos::get);

        assertThat(readiness.current()).isEqualTo(new Readiness.Verdict(List.of("stream"), List.of()));
        up.set(false);
        nanos.addAndGet(MAX_AGE_NANOS - 1);
        assertThat(readiness.current().ready()).as("still the kept verdict").isTrue();
        assertThat(runs).hasValue(1);

        nanos.addAndGet(1);
        assertThat(readiness.current()).isEqualTo(new Readiness.Verdict(List.of("stream"), List.of("stream")));
        assertThat(runs).hasValue(2);
    }

    @Test
    void aMaxAgeOfZeroRunsTheChecksForEveryCaller() {
        Readiness readiness = new Readiness(registry, List.of("stream"), 0, nanos::get);

        readiness.current();
        readiness.current();

        assertThat(runs).hasValue(2);
    }

    @Test
    void callersThatComeWhileTheChecksRunWaitForThatVerdict() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        registry.register("slow", new HealthCheck() {
            @Override
            protected Result check() throws Exception {
                mostAtOnce.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                running.countDown();
                release.await(5, TimeUnit.SECONDS);
                concurrent.decrementAndGet();
                return Result.healthy();
            }
        });
        Readiness readiness = new Readiness(registry, List.of("slow"), MAX_AGE_NANOS, nanos::get);

        Thread first = new Thread(readiness::current);
        first.start();
        assertThat(running.await(5, TimeUnit.SECONDS)).isTrue();
        Thread second = new Thread(readiness::current);
        second.start();
        Await.until(() -> second.getState() == Thread.State.BLOCKED, Duration.ofSeconds(5),
                "the second caller waiting for the first one's verdict");
        release.countDown();
        first.join(5_000);
        second.join(5_000);

        assertThat(mostAtOnce).hasValue(1);
        assertThat(first.isAlive() || second.isAlive()).isFalse();
    }
}
