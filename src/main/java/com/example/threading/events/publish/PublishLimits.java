package com.example.threading.events.publish;

/**
 * The bounds of {@code POST /events} and {@code /events/batch}: the largest event, how many publishes may be in
 * progress at once, how long the body may take to arrive and the stream to take the events, the {@code Retry-After}
 * of a refusal for now, and the most events in a batch.
 */
public record PublishLimits(long maxBytes, int maxInFlight, long bodyReadTimeoutMs, long publishTimeoutMs,
                            long retryAfterSeconds, int maxBatchEvents) {
}
