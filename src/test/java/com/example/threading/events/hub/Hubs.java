package com.example.threading.events.hub;

import com.example.threading.events.history.TopicCursor;
import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventArchive;
import com.example.threading.events.stream.EventSource;
import com.example.threading.events.stream.EventSubscriber;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.LongNode;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Hubs, polls and events for the hub's unit tests: a hub whose source delivers nothing by itself (the test hands it
 * events with {@link EventHub#accept}), on the default topic unless a test asks for others.
 *
 * <p>Thread-safety: stateless.
 */
public final class Hubs {

    /** A source that delivers nothing: the test calls {@link EventHub#accept} itself. */
    public static final EventSource NO_SOURCE = new EventSource() {
        @Override
        public void subscribe(EventSubscriber subscriber) {
        }

        @Override
        public void watch(String topic) {
        }

        @Override
        public void forget(String topic, long lastIdSeen) {
        }
    };

    private Hubs() {
    }

    /** A hub of {@code historySize} events per topic, at most {@code maxParked} polls and 1,000 topics. */
    public static EventHub hub(int historySize, int maxParked, Executor dispatcher, ObjectMapper mapper, HubMetrics metrics,
                        EventArchive archive, LongSupplier nanoClock) {
        return hub(historySize, maxParked, dispatcher, mapper, metrics, archive, nanoClock, new ShutdownSpread(0));
    }

    /** As above, turning polls away while it stops with {@code shutdownSpread}'s headers. */
    public static EventHub hub(int historySize, int maxParked, Executor dispatcher, ObjectMapper mapper, HubMetrics metrics,
                        EventArchive archive, LongSupplier nanoClock, ShutdownSpread shutdownSpread) {
        return new EventHub(new EventHub.Settings(historySize, maxParked, 1_000, shutdownSpread, nanoClock), dispatcher, mapper,
                metrics, NO_SOURCE, archive);
    }

    /** The default topic, after {@code after} (null: the next event). */
    public static List<TopicCursor> at(Long after) {
        return List.of(new TopicCursor(TopicNames.DEFAULT, after));
    }

    /** Event {@code id} of the default topic, its data the id. */
    public static Event event(long id) {
        return event(TopicNames.DEFAULT, id);
    }

    /** Event {@code id} of {@code topic}, its data the id. */
    public static Event event(String topic, long id) {
        return new Event(id, topic, Instant.EPOCH, LongNode.valueOf(id));
    }

    /** Event {@code id} of the default topic with {@code data}. */
    public static Event event(long id, JsonNode data) {
        return new Event(id, TopicNames.DEFAULT, Instant.now(), data);
    }
}
