package com.example.threading.events.http;

import com.example.threading.events.stream.Event;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The JSON of each event, serialized once for all the clients it reaches: the standing polls of a topic share each
 * event, and so do the polls of a batch, so the streams or sockets of a topic send text made once per event, not once
 * per client. Kept by the event's identity (the hub hands every client the same {@link Event}), at most
 * {@value #EVENTS_KEPT} events, dropped sooner once no answer holds the event any more. The bound is in events, not
 * answers: under load a client's turn comes tens or hundreds of milliseconds after its event's, hundreds of events later,
 * and a cache that forgot the event by then would serialize it again for each client, more work just when there is
 * least time for it.
 *
 * <p>Thread-safety: any thread may call {@link #of}. The cache is Caffeine's, its upkeep done on the calling thread
 * (never the common pool); two threads may both serialize one event, and either result is the same.
 *
 * @param <T> one event's JSON as a transport sends it (UTF-8 bytes for a stream and a socket)
 */
public final class EventsJson<T> {

    private static final int EVENTS_KEPT = 4096;

    private final Function<Event, T> serialize;
    private final Cache<Event, T> recent = Caffeine.newBuilder()
            .weakKeys() // by identity: equality would compare every field of two events, and the hub shares one
            .maximumSize(EVENTS_KEPT)
            .executor(Runnable::run)
            .build();

    /** Each event's JSON made by {@code serialize}. */
    public EventsJson(Function<Event, T> serialize) {
        this.serialize = serialize;
    }

    /** The JSON of each of {@code events}, in their order. */
    public List<T> of(List<Event> events) {
        if (events.size() == 1) {
            return List.of(of(events.get(0)));
        }
        List<T> json = new ArrayList<>(events.size());
        for (Event event : events) {
            json.add(of(event));
        }
        return json;
    }

    private T of(Event event) {
        T known = recent.getIfPresent(event);
        if (known != null) {
            return known;
        }
        T made = serialize.apply(event);
        recent.put(event, made);
        return made;
    }
}
