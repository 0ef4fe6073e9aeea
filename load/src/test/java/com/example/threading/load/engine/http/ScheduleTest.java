package com.example.threading.load.engine.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ScheduleTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long T0 = 1_000_000_000L;

    @Test
    void aSenderOnTimeIsMeantToSendWhenItDid() {
        Schedule schedule = Schedule.fixedRate(100);
        for (int n = 1; n <= 5; n++) {
            long queued = T0 + (n - 1) * 10 * MS;
            assertThat(schedule.intendedNanos(n, queued)).isEqualTo(queued);
        }
    }

    @Test
    void aLateRequestIsMeasuredFromItsSlotNotFromWhenItWentOut() {
        Schedule schedule = Schedule.fixedRate(100);
        assertThat(schedule.intendedNanos(1, T0)).isEqualTo(T0);
        assertThat(schedule.intendedNanos(2, T0 + 10 * MS)).isEqualTo(T0 + 10 * MS);
        // A 50 ms stall (GC, a busy core): requests 3 and 4 go out late, back to back.
        assertThat(schedule.intendedNanos(3, T0 + 70 * MS)).isEqualTo(T0 + 20 * MS);
        assertThat(schedule.intendedNanos(4, T0 + 71 * MS)).isEqualTo(T0 + 30 * MS);
    }

    @Test
    void aLateFirstRequestMovesTheStartBackOnceALaterOneShowsItNeverIsAfterItWasQueued() {
        Schedule schedule = Schedule.fixedRate(100);
        // The first request went out 30 ms after the schedule started; the second on time.
        assertThat(schedule.intendedNanos(1, T0 + 30 * MS)).isEqualTo(T0 + 30 * MS);
        assertThat(schedule.intendedNanos(2, T0 + 10 * MS)).isEqualTo(T0 + 10 * MS);
        assertThat(schedule.intendedNanos(3, T0 + 20 * MS)).isEqualTo(T0 + 20 * MS);
        // A late one after that is measured against the earlier start, never against a later one.
        assertThat(schedule.intendedNanos(4, T0 + 100 * MS)).isEqualTo(T0 + 30 * MS);
    }

    @Test
    void theIntendedTimeIsNeverAfterTheRequestWasQueued() {
        Schedule schedule = Schedule.fixedRate(1_000);
        long queued = T0;
        java.util.Random random = new java.util.Random(42);
        for (int n = 1; n <= 10_000; n++) {
            queued += random.nextInt(3) * MS / 2 + (random.nextInt(100) == 0 ? 20 * MS : 0);
            assertThat(schedule.intendedNanos(n, queued)).as("request %d", n).isLessThanOrEqualTo(queued);
        }
    }

    @Test
    void aRateThatIsNotPositiveIsRefused() {
        assertThatThrownBy(() -> Schedule.fixedRate(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> Schedule.fixedRate(-5)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyRequestOfAWaveWasMeantToLeaveWhenTheFirstDid() {
        Schedule schedule = Schedule.allAtOnce();
        assertThat(schedule.intendedNanos(1, T0 + 5 * MS)).isEqualTo(T0 + 5 * MS);
        assertThat(schedule.intendedNanos(2, T0 + 9 * MS)).isEqualTo(T0 + 5 * MS);
        assertThat(schedule.intendedNanos(100, T0 + 900 * MS)).isEqualTo(T0 + 5 * MS);
    }

    @Test
    void aWaveQueuedFromManyThreadsAgreesOnOneStart() throws Exception {
        for (int round = 0; round < 50; round++) {
            Schedule schedule = Schedule.allAtOnce();
            ExecutorService threads = Executors.newFixedThreadPool(4);
            CountDownLatch go = new CountDownLatch(1);
            Set<Long> starts = ConcurrentHashMap.newKeySet();
            try {
                List<Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    long queued = T0 + t * MS;
                    done.add(threads.submit(() -> {
                        go.await();
                        starts.add(schedule.intendedNanos(1, queued));
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> future : done) {
                    future.get(5, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            assertThat(starts).hasSize(1);
        }
    }
}
