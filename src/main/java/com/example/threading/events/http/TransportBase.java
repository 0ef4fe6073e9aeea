package com.example.threading.events.http;

import com.example.threading.events.stream.EventSink;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What a transport added by a bundle of its own (Server-Sent Events, WebSocket) takes from the long-poll's bundle, which
 * made it: the shared HTTP parts, where publishes go and their bounds, and the one thread that sweeps.
 *
 * @param http             the hub, JSON, access gate and {@code Retry-After} every transport shares
 * @param sink             where a transport that also publishes hands its events
 * @param maxEventBytes    the largest event a publish may carry ({@code events.maxEventSize})
 * @param publishTimeoutMs how long a publish may wait for the stream ({@code events.publishTimeout})
 * @param sweeper          the one scheduled thread ({@code events-deadlines}) a transport's sweeps run on
 */
public record TransportBase(EventsHttp http, EventSink sink, long maxEventBytes, long publishTimeoutMs,
                            ScheduledExecutorService sweeper) {
}
