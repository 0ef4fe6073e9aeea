package com.example.threading.work;

import com.codahale.metrics.health.HealthCheck;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * Unhealthy while the bounded pattern is saturated: every place (threads + queue) is taken, so the next request
 * is refused.
 *
 * <p>{@link #check} reads the admission's semaphore and the pool's counters one after the other: the message is not one
 * consistent snapshot (good enough for a health check).
 */
final class BoundedPoolHealthCheck extends HealthCheck {

    private final PlaceLimitedExecutor admission;
    private final ThreadPoolExecutor pool;

    BoundedPoolHealthCheck(PlaceLimitedExecutor admission, ThreadPoolExecutor pool) {
        this.admission = admission;
        this.pool = pool;
    }

    @Override
    protected Result check() {
        int taken = admission.taken();
        String state = String.format("%d of %d places taken (%d of %d threads busy, %d queued)",
                taken, admission.places(), pool.getActiveCount(), pool.getMaximumPoolSize(), pool.getQueue().size());
        return taken >= admission.places() ? Result.unhealthy("saturated, rejecting: " + state) : Result.healthy(state);
    }
}
