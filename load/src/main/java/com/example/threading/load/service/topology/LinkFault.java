package com.example.threading.load.service.topology;

import java.time.Duration;

/**
 * A degraded link: each packet delayed by {@code delay} ± {@code jitter} and dropped with probability
 * {@code lossPercent}. Applied with {@code tc netem} where the kernel has it; on a kernel without netem only the loss
 * can be applied (with an nftables rule that drops at random), and the topology says so.
 */
public record LinkFault(Duration delay, Duration jitter, double lossPercent) {

    /** Validates the figures. */
    public LinkFault {
        if (delay.isNegative() || jitter.isNegative() || lossPercent < 0 || lossPercent > 100) {
            throw new IllegalArgumentException("delay and jitter >= 0, loss 0..100 %: " + delay + " " + jitter + " " + lossPercent);
        }
    }

    /** Whether it delays packets at all. */
    public boolean delays() {
        return !delay.isZero() || !jitter.isZero();
    }

    /** E.g. "delay 100 ms ± 20 ms, loss 5 %". */
    public String describe() {
        return "delay " + delay.toMillis() + " ms ± " + jitter.toMillis() + " ms, loss " + lossPercent + " %";
    }
}
