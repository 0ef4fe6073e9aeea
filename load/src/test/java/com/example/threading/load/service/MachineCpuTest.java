package com.example.threading.load.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MachineCpuTest {

    @Test
    void busyIsEverythingButIdleAndIowait() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        assertThat(MachineCpu.parse("cpu  100 5 50 800 20 3 2 0 40 0")).containsExactly(160, 980);
        assertThat(MachineCpu.parse("intr 1 2 3")).containsExactly(-1, -1);
    }

    @Test
    void readsThisMachineBetweenZeroAndAHundredPercent() throws InterruptedException {
        MachineCpu machine = new MachineCpu();
        long until = System.nanoTime() + 150_000_000L;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertThat(machine.percentSinceLast()).isBetween(0.0, 100.0);
    }
}
