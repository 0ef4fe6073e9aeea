package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.JsonNode;
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
final class Hubs {

    /** A source that delivers nothing: the test calls {@link EventHub#accept} itself. */
    static final EventSource NO_SOURCE = new EventSource() {
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
    static EventHub hub(int historySize, int maxParked, Executor dispatcher, JsonResponses json, LongPollMetrics metrics,
                        EventArchive archive, LongSupplier nanoClock) {
        return hub(historySize, maxParked, dispatcher, json, metrics, archive, nanoClock, new ShutdownSpread(0));
    }

    /** As above, turning polls away while it stops with {@code shutdownSpread}'s headers. */
    static EventHub hub(int historySize, int maxParked, Executor dispatcher, JsonResponses json, LongPollMetrics metrics,
                        EventArchive archive, LongSupplier nanoClock, ShutdownSpread shutdownSpread) {
        return new EventHub(new EventHub.Settings(historySize, maxParked, 1_000, shutdownSpread, nanoClock), dispatcher, json,
                metrics, NO_SOURCE, archive);
    }

    /** The default topic, after {@code after} (null: the next event). */
    static List<TopicCursor> at(Long after) {
        return List.of(new TopicCursor(TopicNames.DEFAULT, after));
    }

    /** Event {@code id} of the default topic, its data the id. */
    static Event event(long id) {
        return event(TopicNames.DEFAULT, id);
    }

    /** Event {@code id} of {@code topic}, its data the id. */
    static Event event(String topic, long id) {
        return new Event(id, topic, Instant.EPOCH, LongNode.valueOf(id));
    }

    /** Event {@code id} of the default topic with {@code data}. */
    static Event event(long id, JsonNode data) {
        return new Event(id, TopicNames.DEFAULT, Instant.now(), data);
    }
}
