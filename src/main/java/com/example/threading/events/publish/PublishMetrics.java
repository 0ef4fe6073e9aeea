package com.example.threading.events.publish;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;

/**
 * The meters of {@code POST /events}, all named {@code events.publish.*}.
 */
final class PublishMetrics {

    /** Answered 4xx: refused from the request head or after reading the body. */
    final Meter refused;
    /** Answered 408: the body did not arrive within {@code bodyReadTimeout} (also counted in {@link #refused}). */
    final Meter slowBodies;
    /** Answered 400 because the body could not be read: it ended early or its framing was broken (also in {@link #refused}). */
    final Meter brokenBodies;
    /** Answered 503 from the head because {@code maxPublishing} publishes were already in progress. */
    final Meter busy;
    /** Answered 503 because the stream failed or did not take the event within {@code publishTimeout}. */
    final Meter failures;
    /** Answers that could not be written (the client went away). */
    final Meter disconnects;

    PublishMetrics(MetricRegistry registry) {
        refused = registry.meter("events.publish.refused");
        slowBodies = registry.meter("events.publish.slow-bodies");
        brokenBodies = registry.meter("events.publish.broken-bodies");
        busy = registry.meter("events.publish.busy");
        failures = registry.meter("events.publish.failures");
        disconnects = registry.meter("events.publish.disconnects");
    }
}
