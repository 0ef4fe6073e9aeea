package com.example.threading.events.hub;

/**
 * What the hub answers a poll with, in the hub's terms: a transport puts it on the wire (the long-poll servlet as an
 * HTTP status, headers and JSON, {@code AsyncDelivery}). The poll's timeout and failure are not answers: they reach the
 * transport as {@link Delivery#expire} and {@link Delivery#abandon}.
 */
public sealed interface Answer {

    /**
     * News after the poll's cursors: {@code answer} is an {@link com.example.threading.events.history.EventBatch} (a
     * poll of one topic) or a {@link com.example.threading.events.history.TopicsBatch}
     * (several), for a transport that writes the events one by one (the Server-Sent Events stream); {@code json}
     * is its JSON, serialized once and shared by the polls of a batch with the same cursors (the long-poll's body).
     */
    record News(Object answer, byte[] json) implements Answer {
    }

    /** Refused for now, before parking (the hub is full, holds too many topics, or cannot read the history): retry later. */
    record Refused(String reason) implements Answer {
    }

    /** The server is stopping: poll again, at another instance, after {@code retryAfterSeconds}. */
    record Closing(int retryAfterSeconds) implements Answer {
        /** What the answer says; another instance can take the poll. */
        public static final String MESSAGE = "server is stopping, poll again";
    }
}
