package com.example.threading.jetty.virtual;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.testing.Await;
import java.io.Closeable;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bound and the counters of {@link BoundedVirtualThreadExecutor}, on a platform thread per task so it runs on
 * JDK 17 too (the executor does not care which kind of thread it is given).
 */
class BoundedVirtualThreadExecutorTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final AtomicReference<Thread> lastThread = new AtomicReference<>();
    private final ExecutorService threadPerTask = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task);
        thread.setDaemon(true);
        lastThread.set(thread);
        return thread;
    });

    @AfterEach
    void stopThreads() {
        threadPerTask.shutdownNow();
    }

    @Test
    void runsAtMostMaxConcurrentAtOnceAndTheRestWait() throws Exception {
        BoundedVirtualThreadExecutor executor = new BoundedVirtualThreadExecutor(threadPerTask, 3);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(5);
        for (int i = 0; i < 5; i++) {
            executor.execute(() -> {
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    running.decrementAndGet();
                    done.countDown();
                }
            });
        }
        Await.until(() -> executor.running() == 3 && executor.waiting() == 2, BOUND, "3 running, 2 waiting");
        assertThat(executor.started()).isEqualTo(5);
        assertThat(executor.waited()).isEqualTo(2);

        release.countDown();
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mostAtOnce.get()).isEqualTo(3);
        Await.until(() -> executor.running() == 0 && executor.waiting() == 0, BOUND, "all permits back");
    }

    @Test
    void aWaiterInterruptedBeforeItsPermitClosesItsTaskAndGivesBackNothing() throws Exception {
        BoundedVirtualThreadExecutor executor = new BoundedVirtualThreadExecutor(threadPerTask, 1);
        CountDownLatch release = new CountDownLatch(1);
        executor.execute(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Await.until(() -> executor.running() == 1, BOUND, "the first task running");
        AtomicBoolean ran = new AtomicBoolean();
        CountDownLatch closed = new CountDownLatch(1);
        executor.execute(new ClosableTask(() -> ran.set(true), closed));
        Await.until(() -> executor.waiting() == 1, BOUND, "the second task waiting");

        lastThread.get().interrupt();
        assertThat(closed.await(10, TimeUnit.SECONDS)).as("the dropped task is closed").isTrue();
        assertThat(ran).isFalse();
        assertThat(executor.interrupted()).isEqualTo(1);
        // Jetty's VirtualThreadPool would now have 2 permits for a bound of 1; this one still has none free.
        assertThat(executor.running()).isEqualTo(1);

        release.countDown();
        Await.until(() -> executor.running() == 0, BOUND, "the permit back");
    }

    @Test
    void refusesTasksAfterShutdown() {
        BoundedVirtualThreadExecutor executor = new BoundedVirtualThreadExecutor(threadPerTask, 2);
        executor.shutdown();
        assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        assertThat(executor.started()).isZero();
    }

    @Test
    void refusesABoundBelowOne() {
        assertThatThrownBy(() -> new BoundedVirtualThreadExecutor(threadPerTask, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }

    private record ClosableTask(Runnable body, CountDownLatch closed) implements Runnable, Closeable {
        @Override
        public void run() {
            body.run();
        }

        @Override
        public void close() {
            closed.countDown();
        }
    }
}
