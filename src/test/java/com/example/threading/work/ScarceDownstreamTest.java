package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.codahale.metrics.MetricRegistry;
import com.example.threading.testing.Await;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scarce downstream on real threads: one connection held, a second task waits for it without a bulkhead and is
 * refused after {@code maxWait} with one, counted; the connection comes back after a task, also a failed one.
 */
class ScarceDownstreamTest {

    private final MetricRegistry metrics = new MetricRegistry();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        threads.shutdownNow();
    }

    @Test
    void withoutABulkheadASecondTaskWaitsForTheConnection() throws Exception {
        ScarceDownstream downstream = downstream(Optional.empty());
        CountDownLatch release = new CountDownLatch(1);
        Future<String> first = holdTheConnection(downstream, release);
        Future<String> second = threads.submit(() -> downstream.call(() -> "second"));

        Await.until(() -> downstream.waiting() == 1, Duration.ofSeconds(10), "the second task waiting");
        assertThat(downstream.inUse()).isEqualTo(1);
        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("second");
        assertThat(downstream.inUse()).isZero();
        assertThat(downstream.waiting()).isZero();
        assertThat(metrics.meter("refused").getCount()).isZero();
    }

    @Test
    void withABulkheadASecondTaskIsRefusedAfterMaxWait() throws Exception {
        ScarceDownstream downstream = downstream(Optional.of(Duration.ofMillis(50)));
        CountDownLatch release = new CountDownLatch(1);
        Future<String> first = holdTheConnection(downstream, release);

        assertThatThrownBy(() -> downstream.call(() -> "second")).isInstanceOf(ScarceDownstream.Busy.class)
                .hasMessageContaining("all 1 downstream connections busy for 50 ms");
        assertThat(metrics.meter("refused").getCount()).isEqualTo(1);
        assertThat(metrics.timer("wait").getSnapshot().getMax()).as("it waited its maxWait")
                .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(downstream.call(() -> "third")).as("the connection is free again").isEqualTo("third");
    }

    @Test
    void aFailedTaskGivesItsConnectionBack() {
        ScarceDownstream downstream = downstream(Optional.of(Duration.ZERO));

        assertThatThrownBy(() -> downstream.call(() -> {
            throw new IllegalStateException("the downstream failed");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(downstream.inUse()).isZero();
    }

    /** A task on another thread that holds the only connection until {@code release}, once it holds it; answers "first". */
    private Future<String> holdTheConnection(ScarceDownstream downstream, CountDownLatch release) throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        Future<String> first = threads.submit(() -> downstream.call(() -> {
            holding.countDown();
            release.await();
            return "first";
        }));
        assertThat(holding.await(10, TimeUnit.SECONDS)).as("the first task holds the connection").isTrue();
        return first;
    }

    private ScarceDownstream downstream(Optional<Duration> maxWait) {
        return new ScarceDownstream(1, maxWait, metrics.timer("wait"), metrics.meter("refused"));
    }
}
