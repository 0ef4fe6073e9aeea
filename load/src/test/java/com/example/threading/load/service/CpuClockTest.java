package com.example.threading.load.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CpuClockTest {

    @Test
    void anUnknownProcessMeasuresNothingRatherThanZero() {
        CpuClock clock = new CpuClock(Optional.empty());
        assertThat(clock.measures()).isFalse();
        assertThat(clock.percentSinceLast()).isNaN();
        assertThat(new ServerCpu(Optional.empty()).measured()).isFalse();
    }

    @Test
    void oneBusyThreadUsesAboutOneCoreOfAllOfThem() {
        CpuClock clock = new CpuClock(Optional.of(ProcessHandle.current()));
        long until = System.nanoTime() + 300_000_000L;
        long spins = 0;
        while (System.nanoTime() < until) {
            spins++;
        }
        double percent = clock.percentSinceLast();
        assertThat(spins).isPositive();
        assertThat(clock.measures()).isTrue();
        // More than nothing even on a crowded machine, at most every core (the JVM's own threads add a little).
        assertThat(percent).isGreaterThan(2.0 / CpuClock.cores()).isLessThanOrEqualTo(100.0);
        assertThat(CpuClock.cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void eachReadingCoversOnlyTheTimeSinceThePreviousOne() throws Exception {
        CpuClock clock = new CpuClock(Optional.of(ProcessHandle.current()));
        long until = System.nanoTime() + 200_000_000L;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        double busy = clock.percentSinceLast();
        Thread.sleep(300);
        double idle = clock.percentSinceLast();
        assertThat(idle).as("a sleeping window after a busy one").isLessThan(busy);
    }
}
