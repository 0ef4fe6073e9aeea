package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Where publishers hand event data: the ticker and {@code POST /events}. The in-process sink numbers the
 * event and delivers it to the hub at once; a shared sink (e.g. Redis pub/sub) would number it across
 * instances and publish it to every instance's {@link EventSource}.
 *
 * <p>Thread-safety: implementations must accept {@link #publish} from any number of threads at once (the
 * ticker's thread and Jetty workers of {@code POST /events}); the returned event's id is final, and the event
 * reaches the {@link EventSource}'s subscriber in id order whichever publisher wins a race.
 */
public interface EventSink {

    /** Publishes {@code data} and returns the event as numbered and timestamped by the stream. */
    Event publish(JsonNode data);
}
