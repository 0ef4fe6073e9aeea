package com.example.threading.longpoll;

import com.codahale.metrics.Histogram;
import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;

/**
 * The hub's meters, histogram and timer, all named {@code events.*} (gauges are registered by {@link LongPollBundle};
 * the publish endpoint's meters are in {@link PublishMetrics}).
 */
final class LongPollMetrics {

    final Meter published;
    final Histogram batchSize;
    final Timer eventToLastWrite;
    final Timer eventToQueued;
    final Meter answeredAtOnce;
    final Meter missed;
    final Meter epochMismatches;
    final Meter epochRestarts;
    final Meter timeouts;
    final Meter rejected;
    final Meter disconnects;
    final Meter shutdownAnswers;
    final Meter shutdownAnsweredOtherwise;
    final Meter shutdownUnfinished;
    final Meter shutdownTurnedAway;
    final Meter blockingTimeouts;
    final Meter topicsCreated;
    final Meter topicsEvicted;
    final Meter topicsRefused;

    LongPollMetrics(MetricRegistry registry) {
        published = registry.meter("events.published");
        batchSize = registry.histogram("events.batch-size");
        eventToLastWrite = registry.timer("events.event-to-last-write");
        eventToQueued = registry.timer("events.event-to-queued");
        answeredAtOnce = registry.meter("events.answered-at-once");
        missed = registry.meter("events.missed");
        epochMismatches = registry.meter("events.epoch-mismatches");
        epochRestarts = registry.meter("events.epoch-restarts");
        timeouts = registry.meter("events.timeouts");
        rejected = registry.meter("events.rejected");
        disconnects = registry.meter("events.disconnects");
        shutdownAnswers = registry.meter("events.shutdown-answers");
        shutdownAnsweredOtherwise = registry.meter("events.shutdown.answered-otherwise");
        shutdownUnfinished = registry.meter("events.shutdown.unfinished");
        shutdownTurnedAway = registry.meter("events.shutdown.turned-away");
        blockingTimeouts = registry.meter("events.blocking.timeouts");
        topicsCreated = registry.meter("events.topics.created");
        topicsEvicted = registry.meter("events.topics.evicted");
        topicsRefused = registry.meter("events.topics.refused");
    }
}
