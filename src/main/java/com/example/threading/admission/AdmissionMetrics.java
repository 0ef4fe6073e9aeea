package com.example.threading.admission;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

/**
 * The metrics of admission control, {@code admission.*}: what it refused (meters), how many requests hold a place
 * and wait for one (gauges), how long admitted requests waited (timer), and the limit in force.
 */
final class AdmissionMetrics {

    static final String REJECTED = "admission.rejected";
    static final String REJECTED_QUEUE_FULL = "admission.rejected.queue-full";
    static final String REJECTED_QUEUE_TIMEOUT = "admission.rejected.queue-timeout";
    static final String ACTIVE = "admission.active";
    static final String QUEUED = "admission.queued";
    static final String MAX_REQUESTS = "admission.max-requests";
    static final String QUEUE_WAIT = "admission.queue-wait";
    static final String ADAPTIVE_LIMIT = "admission.adaptive-limit";

    private final MetricRegistry registry;
    private final Meter rejected;
    private final Meter rejectedQueueFull;
    private final Meter rejectedQueueTimeout;
    private final Timer queueWait;

    /** Registers the meters and the timer in {@code registry}. */
    AdmissionMetrics(MetricRegistry registry) {
        this.registry = registry;
        this.rejected = registry.meter(REJECTED);
        this.rejectedQueueFull = registry.meter(REJECTED_QUEUE_FULL);
        this.rejectedQueueTimeout = registry.meter(REJECTED_QUEUE_TIMEOUT);
        this.queueWait = registry.timer(QUEUE_WAIT);
    }

    /** Registers the gauges: the limit in force, and {@code active} and {@code queued}, read when scraped. */
    void registerGauges(int maxRequests, IntSupplier active, IntSupplier queued) {
        registry.register(ACTIVE, (Gauge<Integer>) active::getAsInt);
        registry.register(QUEUED, (Gauge<Integer>) queued::getAsInt);
        registry.register(MAX_REQUESTS, (Gauge<Integer>) () -> maxRequests);
    }

    /** Registers the gauge of the adaptive limit in force ({@code limit: gradient2} only). */
    void registerAdaptiveLimit(IntSupplier limit) {
        registry.register(ADAPTIVE_LIMIT, (Gauge<Integer>) limit::getAsInt);
    }

    /** A request got a place after waiting {@code waitedNanos} (0 when one was free). */
    void admitted(long waitedNanos) {
        queueWait.update(waitedNanos, TimeUnit.NANOSECONDS);
    }

    /** A request was refused at once: {@code maxQueued} requests were already waiting (or over the adaptive limit). */
    void refusedQueueFull() {
        rejected.mark();
        rejectedQueueFull.mark();
    }

    /** A request was refused after waiting {@code maxQueueTime} for a place. */
    void refusedQueueTimeout() {
        rejected.mark();
        rejectedQueueTimeout.mark();
    }
}
