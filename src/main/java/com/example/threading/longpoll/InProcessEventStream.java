package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The default stream: events are numbered 1, 2, 3... in this JVM and handed to the subscriber on the
 * publishing thread; the returned stage is complete when {@link #publish} returns.
 *
 * <p>Thread-safety: {@link #publish} runs under a lock, so ids are assigned and delivered in the same order
 * and the subscriber sees one event at a time. The subscriber must therefore be quick (the hub only appends
 * to its ring and hands the batch of parked requests to its own dispatcher). {@link #subscribe} takes the same
 * lock, so a subscriber set before a publish sees that event.
 *
 * <p>A {@link ReentrantLock}, not {@code synchronized}: the subscriber takes the hub's lock, which thousands of
 * woken {@code /events/blocking} threads contend for, so a publisher may park while holding this lock. On JDK 21 a
 * virtual thread (a {@code POST /events} with {@code serverVirtualThreads.enabled}) that parks inside a monitor,
 * or blocks entering one, pins its carrier; two publishers could pin both carriers of a 2-core machine while the
 * hub's lock holder waits for a carrier. A virtual thread parked on a {@code ReentrantLock} frees its carrier on
 * every JDK (JDK 24+ no longer pins on monitors either, JEP 491).
 */
final class InProcessEventStream implements EventSink, EventSource {

    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private Consumer<Event> subscriber = event -> { };
    private long lastId;

    InProcessEventStream(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void subscribe(Consumer<Event> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        lock.lock();
        try {
            this.subscriber = subscriber;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public CompletionStage<Event> publish(JsonNode data) {
        lock.lock();
        try {
            Event event = new Event(++lastId, clock.instant(), data);
            subscriber.accept(event);
            return CompletableFuture.completedFuture(event);
        } finally {
            lock.unlock();
        }
    }
}
