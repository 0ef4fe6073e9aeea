package com.example.threading.events.history;

/**
 * One topic of a poll, the cursor it reads after, and the history the cursor belongs to.
 *
 * @param topic a checked topic name ({@link com.example.threading.events.stream.TopicNames})
 * @param after the last id the client has seen on that topic, or null (the next event: today's newest id)
 * @param epoch the epoch of the history {@code after} was read from ({@code "epoch"} of an answer), or null (not known)
 */
public record TopicCursor(String topic, Long after, String epoch) {

    /** A cursor without an epoch. */
    public TopicCursor(String topic, Long after) {
        this(topic, after, null);
    }

    /** Whether this cursor was read in another history than {@code current} (false when either is not known). */
    public boolean otherEpochThan(String current) {
        return epoch != null && current != null && !epoch.equals(current);
    }
}
