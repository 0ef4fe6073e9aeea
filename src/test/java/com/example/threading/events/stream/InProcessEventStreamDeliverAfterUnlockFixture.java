package com.example.threading.events.stream;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link InProcessEventStream} with a seeded bug, for {@link InProcessEventStreamLincheckTest}: the events are numbered
 * under the lock but handed to the subscriber after it is released, so two publishers can hand theirs over out of
 * order, or at once.
 */
final class InProcessEventStreamDeliverAfterUnlockFixture implements EventSink, EventSource {

    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final ConcurrentHashMap<String, Long> lastIds = new ConcurrentHashMap<>();
    private volatile EventSubscriber subscriber = event -> { };

    InProcessEventStreamDeliverAfterUnlockFixture(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void subscribe(EventSubscriber subscriber) {
        this.subscriber = subscriber;
    }

    @Override
    public void watch(String topic) {
    }

    @Override
    public void forget(String topic, long lastIdSeen) {
        lastIds.remove(topic, lastIdSeen);
    }

    @Override
    public CompletionStage<Event> publish(String topic, JsonNode data) {
        Event event;
        lock.lock();
        try {
            event = new Event(lastIds.merge(topic, 1L, Long::sum), topic, clock.instant(), data);
        } finally {
            lock.unlock();
        }
        subscriber.accept(event); // the seeded bug: after the lock
        return CompletableFuture.completedFuture(event);
    }

    @Override
    public List<CompletionStage<Event>> publishAll(List<NewEvent> items) {
        List<Event> events = new ArrayList<>(items.size());
        lock.lock();
        try {
            for (NewEvent item : items) {
                events.add(new Event(lastIds.merge(item.topic(), 1L, Long::sum), item.topic(), clock.instant(), item.data()));
            }
        } finally {
            lock.unlock();
        }
        subscriber.acceptAll(events); // the seeded bug: after the lock
        List<CompletionStage<Event>> stages = new ArrayList<>(events.size());
        events.forEach(event -> stages.add(CompletableFuture.completedFuture(event)));
        return stages;
    }
}
