package com.example.threading.load.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WatchdogTest {

    @Test
    void aRunThatOverrunsItsLimitIsStoppedFromTheWatchdogsThread() throws Exception {
        CountDownLatch expired = new CountDownLatch(1);
        AtomicReference<String> thread = new AtomicReference<>();
        Watchdog watchdog = Watchdog.start(Duration.ofMillis(50), () -> {
            thread.set(Thread.currentThread().getName());
            expired.countDown();
        });
        try {
            assertThat(expired.await(5, TimeUnit.SECONDS)).isTrue();
        } finally {
            watchdog.close();
        }
        assertThat(thread.get()).isEqualTo("scenario-watchdog");
    }

    @Test
    void aRunThatEndsInTimeIsNeverStopped() throws Exception {
        CountDownLatch expired = new CountDownLatch(1);
        Watchdog watchdog = Watchdog.start(Duration.ofMillis(200), expired::countDown);
        watchdog.close();
        watchdog.close();
        assertThat(expired.await(600, TimeUnit.MILLISECONDS)).as("the action ran after close").isFalse();
    }

    @Test
    void aDeadlineCutsEveryWaitAtItself() throws Exception {
        Deadline deadline = Deadline.after(Duration.ofMillis(300));
        assertThat(deadline.isUp()).isFalse();
        assertThat(deadline.within(Duration.ofSeconds(10))).isEqualTo(deadline.nanos());
        long shortWait = deadline.within(Duration.ofMillis(10));
        assertThat(shortWait).isLessThan(deadline.nanos());
        Thread.sleep(350);
        assertThat(deadline.isUp()).isTrue();
        assertThat(Deadline.after(Duration.ZERO).isUp()).isTrue();
    }
}
