package com.example.threading.work;

import com.codahale.metrics.health.HealthCheck;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * Unhealthy while the bounded pool is saturated: every thread busy and the queue full, so the next request
 * would be rejected. Reads the pool's own counters, which are safe to read from any thread (approximate
 * under concurrent change, as a health check may be).
 */
final class BoundedPoolHealthCheck extends HealthCheck {

    private final ThreadPoolExecutor pool;

    BoundedPoolHealthCheck(ThreadPoolExecutor pool) {
        this.pool = pool;
    }

    @Override
    protected Result check() {
        int active = pool.getActiveCount();
        int queued = pool.getQueue().size();
        int queueFree = pool.getQueue().remainingCapacity();
        String state = String.format("%d of %d threads busy, %d queued, %d queue slots free",
                active, pool.getMaximumPoolSize(), queued, queueFree);
        return active >= pool.getMaximumPoolSize() && queueFree == 0
                ? Result.unhealthy("saturated, rejecting: " + state)
                : Result.healthy(state);
    }
}
