package com.example.threading.events.stream;


/**
 * Where the hub's events come from. A source delivers every event of the topics it watches once, in id order per
 * topic, to its one subscriber, from one thread at a time. The in-process source is fed by the in-process
 * {@link EventSink}; a shared stream's source (e.g. a reader of Redis Streams) delivers what any instance published.
 *
 * <p>Interest: the hub {@link #watch}es a topic while it holds it (a poll or publish created it) and
 * {@link #forget}s it when it evicts the topic, so a shared stream reads only the topics this instance has polls on,
 * and the in-process stream drops the topic's numbering.
 *
 * <p>Thread-safety: {@link #subscribe} is called once, on the start-up thread, before any event is published;
 * {@link #watch} and {@link #forget} from any thread.
 * The source then calls the subscriber from one thread at a time, each call happening-before the next (the
 * in-process stream calls it on the publishing thread, under its own lock; a shared stream on its one reader
 * thread), so the subscriber sees events in id order per topic, one by one or several published together
 * ({@link EventSubscriber#acceptAll}); it must return quickly, since the next event waits.
 * {@code RedisStreamClusterTest} checks it for the shared stream: with six publishers at once on two instances, every
 * follower sees each event once, in id order.
 */
public interface EventSource {

    /** Registers the single subscriber; called once, before the first event is published. */
    void subscribe(EventSubscriber subscriber);

    /**
     * Starts delivering {@code topic}'s events published from now on (those before are the archive's); called by the
     * hub when it creates the topic, possibly with its lock held: must not block, nor take a lock that is held while
     * an event is delivered.
     */
    void watch(String topic);

    /**
     * Stops delivering {@code topic}'s events; called by the hub, without its lock, after it evicted the topic, whose
     * newest event it had seen was {@code lastIdSeen}. A stream that numbers events itself forgets the topic's
     * numbering only if nothing was numbered since (a publish may have re-created the topic meanwhile).
     */
    void forget(String topic, long lastIdSeen);
}
