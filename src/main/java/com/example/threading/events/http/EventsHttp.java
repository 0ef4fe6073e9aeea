package com.example.threading.events.http;

import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.HubMetrics;
import com.example.threading.events.hub.ShutdownSpread;

/**
 * What every HTTP transport of the events wing shares: the hub it answers from, its JSON, the access policy every
 * subscription and publish passes first, and how it turns clients away for now.
 *
 * @param hub               where polls park and events arrive
 * @param hubMetrics        the hub's meters ({@code events.*}), e.g. for a transport's failed writes
 * @param json              the application's JSON, and the error body
 * @param access            who may read and publish which topic, and the poll query's limits
 * @param retryAfterSeconds the {@code Retry-After} of a {@code 503} for a full hub or an unavailable stream
 * @param shutdownSpread    the {@code Retry-After}s of requests turned away while the server stops
 */
public record EventsHttp(EventHub hub, HubMetrics hubMetrics, JsonResponses json, AccessGate access, long retryAfterSeconds,
                         ShutdownSpread shutdownSpread) {
}
