package com.example.threading.events.hub;

import com.example.threading.events.history.TopicNews;

/**
 * The transport's side of a standing poll ({@link EventHub#follow}): a client that stays subscribed to its topics
 * across events (an event stream, a socket). Besides what every {@link Delivery} is told, it is handed each event of
 * its topics as the hub appends it, without a new poll per event. {@link Delivery#offer} then carries only what ends
 * the poll or precedes it: news the cursors had when it was placed (the transport follows again from its new cursors),
 * a refusal, the stop. {@link Delivery#expire} is a heartbeat: the poll's period passed, and it still stands.
 *
 * <p>Thread-safety: {@link #follow} is called from the hub's one dispatcher thread, in the order the events were
 * appended, and must not block; the transport keeps that order when it hands the work to other threads.
 * {@link Delivery#offer} and {@link Delivery#expire} come from other threads (a request's, the archive's, the deadline
 * sweep's, the stop's), so a transport that orders its output must put them in the same queue as the news.
 */
public interface Follower extends Delivery {

    /**
     * The next events of one of its topics; {@code handed} must be run once, when they are handed to the connection or
     * dropped (the poll ended meanwhile): it times the event's batch.
     */
    void follow(TopicNews news, Runnable handed);
}
