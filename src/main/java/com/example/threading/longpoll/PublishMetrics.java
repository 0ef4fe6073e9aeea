package com.example.threading.longpoll;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;

/**
 * The meters of {@code POST /events}, all named {@code events.publish.*}.
 *
 * <p>Thread-safety: immutable holder of thread-safe Metrics objects.
 */
final class PublishMetrics {

    /** Answered 4xx: refused before or after reading the body. */
    final Meter refused;
    /** Answered 503 because the stream failed or did not take the event within {@code publishTimeout}. */
    final Meter failures;
    /** Answers that could not be written (the client went away). */
    final Meter disconnects;

    PublishMetrics(MetricRegistry registry) {
        refused = registry.meter("events.publish.refused");
        failures = registry.meter("events.publish.failures");
        disconnects = registry.meter("events.publish.disconnects");
    }
}
