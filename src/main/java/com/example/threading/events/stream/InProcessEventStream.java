package com.example.threading.events.stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The default stream: events are numbered 1, 2, 3... per topic in this JVM and handed to the subscriber on the
 * publishing thread; the returned stage is complete when {@link #publish} returns. A topic's numbering lives as long
 * as the hub watches the topic: {@link #forget} (the hub evicted it) drops it, and the next event on that topic is 1
 * again.
 *
 * <p>Thread-safety: {@link #publish} and {@link #publishAll} run under a lock, so ids are assigned and delivered in
 * the same order and the subscriber sees one event, or one batch's events ({@link EventSubscriber#acceptAll}), at a
 * time. The subscriber must therefore be quick (the hub only appends to its rings and hands the parked requests they
 * take to its own dispatcher). {@link #subscribe} takes the same lock, so a subscriber set before a publish sees that
 * event. {@code InProcessEventStreamLincheckTest} checks it over the interleavings of three publishers of one topic.
 *
 * <p>A {@link ReentrantLock}, not {@code synchronized}: the subscriber takes the hub's lock, which thousands of
 * woken {@code /events/blocking} threads contend for, so a publisher may park while holding this lock. On JDK 21 a
 * virtual thread (a {@code POST /events} with {@code serverVirtualThreads.enabled}) that parks inside a monitor,
 * or blocks entering one, pins its carrier; two publishers could pin both carriers of a 2-core machine while the
 * hub's lock holder waits for a carrier. A virtual thread parked on a {@code ReentrantLock} frees its carrier on
 * every JDK (JDK 24+ no longer pins on monitors either, JEP 491). {@link #watch} and {@link #forget} take no lock,
 * so the hub may call them with its own held: the locks are only ever taken in the order stream, hub (on publish).
 */
public final class InProcessEventStream implements EventSink, EventSource {

    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@code lock} for numbering; {@link #forget} removes an entry without it (a conditional remove). */
    private final ConcurrentHashMap<String, Long> lastIds = new ConcurrentHashMap<>();
    @GuardedBy("lock")
    private EventSubscriber subscriber = event -> { };

    public InProcessEventStream(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void subscribe(EventSubscriber subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        lock.lock();
        try {
            this.subscriber = subscriber;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void watch(String topic) {
        // Every published event is delivered; a topic's numbering starts with its first event.
    }

    @Override
    public void forget(String topic, long lastIdSeen) {
        lastIds.remove(topic, lastIdSeen); // kept if an event was numbered since the hub saw the last
    }

    @Override
    public CompletionStage<Event> publish(String topic, JsonNode data) {
        lock.lock();
        try {
            Event event = new Event(lastIds.merge(topic, 1L, Long::sum), topic, clock.instant(), data);
            subscriber.accept(event);
            return CompletableFuture.completedFuture(event);
        } finally {
            lock.unlock();
        }
    }

    /** Numbers the events in their order and hands them to the subscriber together. */
    @Override
    public List<CompletionStage<Event>> publishAll(List<NewEvent> items) {
        List<Event> events = new ArrayList<>(items.size());
        lock.lock();
        try {
            Instant now = clock.instant();
            for (NewEvent item : items) {
                events.add(new Event(lastIds.merge(item.topic(), 1L, Long::sum), item.topic(), now, item.data()));
            }
            subscriber.acceptAll(events);
        } finally {
            lock.unlock();
        }
        List<CompletionStage<Event>> stages = new ArrayList<>(events.size());
        events.forEach(event -> stages.add(CompletableFuture.completedFuture(event)));
        return stages;
    }
}
