package com.example.threading.events.sse;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;

/** The meters of the Server-Sent Events streams, all named {@code events.sse.*} (gauges: {@link SseBundle}). */
final class SseMetrics {

    final Meter opened;
    final Meter refused;
    final Meter eventsWritten;
    final Meter heartbeats;
    final Meter shed;
    final Meter lifetimeEnds;
    final Meter shutdownEnds;
    final Meter hubRefusals;

    SseMetrics(MetricRegistry registry) {
        opened = registry.meter("events.sse.opened");
        refused = registry.meter("events.sse.refused");
        eventsWritten = registry.meter("events.sse.events-written");
        heartbeats = registry.meter("events.sse.heartbeats");
        shed = registry.meter("events.sse.shed");
        lifetimeEnds = registry.meter("events.sse.lifetime-ends");
        shutdownEnds = registry.meter("events.sse.shutdown-ends");
        hubRefusals = registry.meter("events.sse.hub-refusals");
    }
}
