package com.example.threading.longpoll;

/**
 * What the hub answers a poll with, in the hub's terms: a transport puts it on the wire (the long-poll servlet as an
 * HTTP status, headers and JSON, {@link AsyncDelivery}). The poll's timeout and failure are not answers: they reach the
 * transport as {@link Delivery#expire} and {@link Delivery#abandon}.
 */
sealed interface Answer {

    /** News after the poll's cursors: the JSON of an {@link EventBatch} or a {@link TopicsBatch}, shared by the batch. */
    record News(byte[] json) implements Answer {
    }

    /** Refused for now, before parking (the hub is full, holds too many topics, or cannot read the history): retry later. */
    record Refused(String reason) implements Answer {
    }

    /** The server is stopping: poll again, at another instance, after {@code retryAfterSeconds}. */
    record Closing(int retryAfterSeconds) implements Answer {
    }
}
