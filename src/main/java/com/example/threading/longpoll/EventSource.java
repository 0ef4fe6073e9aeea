package com.example.threading.longpoll;

import java.util.function.Consumer;

/**
 * Where the hub's events come from. A source delivers every event once, in id order, to its one subscriber,
 * from one thread at a time. The in-process source is fed by the in-process {@link EventSink}; a Redis
 * pub/sub source would deliver what any instance published.
 */
public interface EventSource {

    /** Registers the single subscriber; called once, before the first event is published. */
    void subscribe(Consumer<Event> subscriber);
}
