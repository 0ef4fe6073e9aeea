package com.example.threading.work;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The anti-pattern's executor: a new thread per task, counted while it lives. */
class ThreadPerRequestExecutorTest {

    @Test
    void everyTaskGetsANewNamedThreadCountedWhileItLives() throws Exception {
        ThreadPerRequestExecutor executor = new ThreadPerRequestExecutor("per-request-");
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(5);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < 5; i++) {
            executor.execute(() -> {
                threads.add(Thread.currentThread());
                started.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

        assertThat(executor.liveThreads()).isEqualTo(5);
        assertThat(executor.startedThreads()).isEqualTo(5);
        assertThat(threads).hasSize(5).allSatisfy(thread -> assertThat(thread.getName()).matches("per-request-[1-5]"));

        release.countDown();
        Await.until(() -> executor.liveThreads() == 0, Duration.ofSeconds(30), "every thread ended with its task");
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(thread.isAlive()).isFalse();
        }
        assertThat(executor.startedThreads()).isEqualTo(5);
    }

    @Test
    void aTaskThatThrowsStillEndsItsCount() {
        ThreadPerRequestExecutor executor = new ThreadPerRequestExecutor("per-request-");
        Thread.UncaughtExceptionHandler quiet = (thread, error) -> { };
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler(quiet);
        try {
            executor.execute(() -> {
                throw new IllegalStateException("boom");
            });
            Await.until(() -> executor.liveThreads() == 0 && executor.startedThreads() == 1, Duration.ofSeconds(30), "counted out");
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
    }
}
