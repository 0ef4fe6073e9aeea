package com.example.threading.events.stream;

import java.util.Optional;

/**
 * What the long-poll uses of an event stream: where publishers hand events ({@code sink}), where the hub receives
 * them in id order ({@code source}), the log of a shared stream for the cursors the hub's ring cannot answer
 * ({@code archive}; empty in-process) and whether this instance's ticker publishes this period ({@code tickGate}).
 * Built by the {@code EventStreamFactory} that {@code events.stream} names.
 *
 * @param sink     where the ticker and {@code POST /events} publish
 * @param source   delivers every event once, in id order, to the hub
 * @param archive  the shared stream's log, empty when the ring is all the history there is
 * @param tickGate one ticker for all instances sharing the stream ({@link TickGate#ALWAYS} on one instance)
 */
public record EventStream(EventSink sink, EventSource source, Optional<EventArchive> archive, TickGate tickGate) {
}
