package com.example.threading.events.websocket;

import com.codahale.metrics.Meter;
import com.codahale.metrics.MetricRegistry;

/** The meters of the WebSocket transport, all named {@code events.websocket.*} (gauges: {@link WebSocketBundle}). */
final class SocketMetrics {

    final Meter opened;
    final Meter refused;
    final Meter neverOpened;
    final Meter eventsWritten;
    final Meter heartbeats;
    final Meter shed;
    final Meter lifetimeEnds;
    final Meter expiredEnds;
    final Meter shutdownEnds;
    final Meter hubRefusals;
    final Meter messages;
    final Meter badMessages;
    final Meter limited;
    final Meter published;
    final Meter publishFailures;

    SocketMetrics(MetricRegistry registry) {
        opened = registry.meter("events.websocket.opened");
        refused = registry.meter("events.websocket.refused");
        neverOpened = registry.meter("events.websocket.never-opened");
        eventsWritten = registry.meter("events.websocket.events-written");
        heartbeats = registry.meter("events.websocket.heartbeats");
        shed = registry.meter("events.websocket.shed");
        lifetimeEnds = registry.meter("events.websocket.lifetime-ends");
        expiredEnds = registry.meter("events.websocket.expired-ends");
        shutdownEnds = registry.meter("events.websocket.shutdown-ends");
        hubRefusals = registry.meter("events.websocket.hub-refusals");
        messages = registry.meter("events.websocket.messages");
        badMessages = registry.meter("events.websocket.bad-messages");
        limited = registry.meter("events.websocket.limited");
        published = registry.meter("events.websocket.published");
        publishFailures = registry.meter("events.websocket.publish-failures");
    }
}
