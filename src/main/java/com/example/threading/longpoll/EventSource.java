package com.example.threading.longpoll;

import java.util.function.Consumer;

/**
 * Where the hub's events come from. A source delivers every event once, in id order, to its one subscriber,
 * from one thread at a time. The in-process source is fed by the in-process {@link EventSink}; a Redis
 * pub/sub source would deliver what any instance published.
 *
 * <p>Thread-safety: {@link #subscribe} is called once, on the start-up thread, before any event is published.
 * The source then calls the subscriber from one thread at a time, each call happening-before the next (the
 * in-process stream calls it on the publishing thread, under its own lock; a shared stream on its one reader
 * thread), so the subscriber sees events one by one in id order; it must return quickly, since the next event
 * waits.
 */
public interface EventSource {

    /** Registers the single subscriber; called once, before the first event is published. */
    void subscribe(Consumer<Event> subscriber);
}
