package com.example.threading.longpoll;

/**
 * One topic of a poll and the cursor it reads after: {@code null} means "the next event" (today's newest id).
 *
 * @param topic a checked topic name ({@link TopicNames})
 * @param after the last id the client has seen on that topic, or null
 */
record TopicCursor(String topic, Long after) {
}
