package com.example.threading.events.publish;

import com.example.threading.events.stream.Event;
import com.example.threading.events.stream.EventSink;
import com.example.threading.events.stream.NewEvent;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * Publishes through an {@link EventSink} with a deadline of the caller's: the result completes with the event, or
 * exceptionally when the sink fails, throws instead of failing its stage, or has not answered within the timeout
 * ({@link java.util.concurrent.TimeoutException}, raised on the JDK's delay-scheduler thread).
 *
 * <p>Its result may complete on any thread: what depends on it must be quick and non-blocking.
 */
final class BoundedPublish {

    private BoundedPublish() {
    }

    /** Starts {@code sink.publish(topic, data)} and returns its outcome, bounded by {@code timeoutMs}. */
    static CompletableFuture<Event> publish(EventSink sink, String topic, JsonNode data, long timeoutMs) {
        CompletableFuture<Event> outcome = bounded(timeoutMs);
        try {
            relay(sink.publish(topic, data), outcome);
        } catch (RuntimeException brokenSink) {
            outcome.completeExceptionally(brokenSink);
        }
        return outcome;
    }

    /** Starts {@code sink.publishAll(events)} and returns each event's outcome, each bounded by {@code timeoutMs}. */
    static List<CompletableFuture<Event>> publishAll(EventSink sink, List<NewEvent> events, long timeoutMs) {
        List<CompletableFuture<Event>> outcomes = new ArrayList<>(events.size());
        for (int e = 0; e < events.size(); e++) {
            outcomes.add(bounded(timeoutMs));
        }
        try {
            List<CompletionStage<Event>> stages = sink.publishAll(events);
            for (int e = 0; e < outcomes.size(); e++) {
                relay(stages.get(e), outcomes.get(e));
            }
        } catch (RuntimeException brokenSink) {
            outcomes.forEach(outcome -> outcome.completeExceptionally(brokenSink));
        }
        return outcomes;
    }

    /**
     * Our own future, not the sink's stage: toCompletableFuture() is optional for a CompletionStage, and a timeout must
     * not complete (or cancel) a future the sink owns.
     */
    private static CompletableFuture<Event> bounded(long timeoutMs) {
        return new CompletableFuture<Event>().orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
    }

    private static void relay(CompletionStage<Event> stage, CompletableFuture<Event> outcome) {
        stage.whenComplete((event, failure) -> {
            if (failure == null) {
                outcome.complete(event);
            } else {
                outcome.completeExceptionally(failure);
            }
        });
    }
}
