package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The default stream: events are numbered 1, 2, 3... in this JVM and handed to the subscriber on the
 * publishing thread; the returned stage is complete when {@link #publish} returns.
 *
 * <p>Thread-safety: {@link #publish} is synchronized, so ids are assigned and delivered in the same order
 * and the subscriber sees one event at a time. The subscriber must therefore be quick (the hub only appends
 * to its ring and hands the batch of parked requests to its own dispatcher).
 */
final class InProcessEventStream implements EventSink, EventSource {

    private final Clock clock;
    private Consumer<Event> subscriber = event -> { };
    private long lastId;

    InProcessEventStream(Clock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void subscribe(Consumer<Event> subscriber) {
        this.subscriber = Objects.requireNonNull(subscriber, "subscriber");
    }

    @Override
    public synchronized CompletionStage<Event> publish(JsonNode data) {
        Event event = new Event(++lastId, clock.instant(), data);
        subscriber.accept(event);
        return CompletableFuture.completedFuture(event);
    }
}
