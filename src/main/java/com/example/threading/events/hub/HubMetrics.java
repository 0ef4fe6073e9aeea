package com.example.threading.events.hub;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import com.example.threading.events.stream.TopicNames;

/**
 * The hub's metrics, all named {@code events.*}: meters, the batch-size histogram and the batch timers, made before the
 * hub, and the gauges that read a hub ({@link #gauges}). A transport's and publishing's own metrics are theirs.
 */
public final class HubMetrics {

    private final MetricRegistry registry;

    final Meter published;
    final Histogram batchSize;
    final Timer eventToLastWrite;
    final Timer eventToQueued;
    final Meter answeredAtOnce;
    final Meter follows;
    final Meter missed;
    final Meter epochMismatches;
    final Meter epochRestarts;
    final Meter timeouts;
    final Meter rejected;
    final Meter disconnects;
    final Meter shutdownTurnedAway;
    final Meter blockingTimeouts;
    final Meter topicsCreated;
    final Meter topicsEvicted;
    final Meter topicsRefused;

    /** Registers the hub's meters, histogram and timers in {@code registry}. */
    public HubMetrics(MetricRegistry registry) {
        this.registry = registry;
        published = registry.meter("events.published");
        batchSize = registry.histogram("events.batch-size");
        eventToLastWrite = registry.timer("events.event-to-last-write");
        eventToQueued = registry.timer("events.event-to-queued");
        answeredAtOnce = registry.meter("events.answered-at-once");
        follows = registry.meter("events.follows");
        missed = registry.meter("events.missed");
        epochMismatches = registry.meter("events.epoch-mismatches");
        epochRestarts = registry.meter("events.epoch-restarts");
        timeouts = registry.meter("events.timeouts");
        rejected = registry.meter("events.rejected");
        disconnects = registry.meter("events.disconnects");
        shutdownTurnedAway = registry.meter("events.shutdown.turned-away");
        blockingTimeouts = registry.meter("events.blocking.timeouts");
        topicsCreated = registry.meter("events.topics.created");
        topicsEvicted = registry.meter("events.topics.evicted");
        topicsRefused = registry.meter("events.topics.refused");
    }

    /** Registers the gauges that read {@code hub}: parked polls beside their bound, blocked waiters, topics, last id. */
    public void gauges(EventHub hub, int maxParked) {
        registry.register("events.parked", (Gauge<Integer>) hub::parkedCount);
        // The bound beside the count, so an alert can compare the two without knowing the configuration.
        registry.register("events.max-parked", (Gauge<Integer>) () -> maxParked);
        registry.register("events.blocking.waiting", (Gauge<Integer>) hub.blockingWaits()::waiting);
        registry.register("events.last-id", (Gauge<Long>) () -> hub.lastId(TopicNames.DEFAULT));
        registry.register("events.topics.live", (Gauge<Integer>) hub::topicCount);
    }

    /** A poll's or an answer's request failed (client reset, connection closed): {@code events.disconnects}. */
    public Meter disconnects() {
        return disconnects;
    }

    /** Requests turned away because the server is stopping: {@code events.shutdown.turned-away}. */
    public Meter shutdownTurnedAway() {
        return shutdownTurnedAway;
    }
}
