package com.example.threading.longpoll;

/**
 * The bounds of {@code POST /events}: the largest body, how many publishes may be in progress at once, how long the
 * body may take to arrive and the stream to take the event, and the {@code Retry-After} of a refusal for now.
 */
record PublishLimits(long maxBytes, int maxInFlight, long bodyReadTimeoutMs, long publishTimeoutMs, long retryAfterSeconds) {

    /** The limits the {@code events} section sets. */
    static PublishLimits of(EventsConfiguration configuration) {
        return new PublishLimits(configuration.getMaxEventSize().toBytes(), configuration.getMaxPublishing(),
                configuration.getBodyReadTimeout().toMilliseconds(), configuration.getPublishTimeout().toMilliseconds(),
                configuration.getRetryAfter().toSeconds());
    }
}
