package com.example.threading.events.access;

import java.time.Instant;
import java.util.Optional;

/**
 * What an authenticated caller may do: which topics it may read and publish, and until when.
 */
public interface TopicGrant {

    /** Every topic, for every action, for ever: what {@code open} access grants a subscriber. */
    TopicGrant EVERY_TOPIC = (action, topic) -> true;

    /** Whether the caller may {@code action} the topic {@code topic} (a checked name, see {@link com.example.threading.events.stream.TopicNames}). */
    boolean allows(TopicAccess.Action action, String topic);

    /**
     * Who the grant is for (e.g. a token's {@code sub}): carried with the request's context into its log lines and span.
     * Empty when the caller is anyone (open access).
     */
    default Optional<String> caller() {
        return Optional.empty();
    }

    /**
     * When the grant ends (e.g. its token's expiry): a poll admitted with it waits at most until then, so that no
     * poll outlives its credentials. Empty: never.
     */
    default Optional<Instant> expiresAt() {
        return Optional.empty();
    }
}
