package com.example.threading.events.stream;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where publishers hand event data: the ticker and {@code POST /events}. Events are numbered per topic. The
 * in-process sink numbers the event and delivers it to the hub at once; a shared sink (e.g. Redis Streams) numbers it across instances and
 * delivers it to every instance's {@link EventSource}, and may take a network round trip to do so.
 *
 * <p>Contract for implementations: {@link #publish} must not block the calling thread (it is a Jetty thread for
 * {@code POST /events}), and the returned stage must complete, normally or exceptionally, within a bounded time
 * (e.g. the store client's command timeout); callers answer their clients from its completion, on whatever
 * thread completes it, and do only non-blocking work there.
 *
 * <p>Thread-safety: implementations must accept {@link #publish} from any number of threads at once (the
 * ticker's thread and Jetty workers of {@code POST /events}); the event's id is final once its stage completes,
 * and events reach the {@link EventSource}'s subscriber in id order whichever publisher wins a race. Events one thread
 * publishes on one topic, one call after the other, are numbered in the order of the calls ({@code POST /events/batch}
 * relies on it). {@code RedisStreamClusterTest} checks it with six publishers at once on two instances over one Redis:
 * every id once, every follower seeing them in order.
 */
public interface EventSink {

    /**
     * Publishes {@code data} on {@code topic}; completes with the event as numbered (the topic's next id) and
     * timestamped by the stream, or exceptionally when the stream cannot take it (e.g. its backing store is
     * unreachable). Must complete within a bounded time.
     */
    CompletionStage<Event> publish(String topic, JsonNode data);

    /**
     * Publishes several events in their order, as one {@link #publish} per event, one call after the other, would; a
     * stage per event. A sink that can hand them to its source's subscriber together
     * ({@link EventSubscriber#acceptAll}) does, so that a poll waiting on several of their topics is answered once.
     */
    default List<CompletionStage<Event>> publishAll(List<NewEvent> events) {
        List<CompletionStage<Event>> stages = new ArrayList<>(events.size());
        for (NewEvent event : events) {
            stages.add(publish(event.topic(), event.data()));
        }
        return stages;
    }
}
