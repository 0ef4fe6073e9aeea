package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;
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
        // Our own future, not the sink's stage: toCompletableFuture() is optional for a CompletionStage, and a
        // timeout must not complete (or cancel) a future the sink owns.
        CompletableFuture<Event> outcome = new CompletableFuture<Event>().orTimeout(timeoutMs, TimeUnit.MILLISECONDS);
        try {
            sink.publish(topic, data).whenComplete((event, failure) -> {
                if (failure == null) {
                    outcome.complete(event);
                } else {
                    outcome.completeExceptionally(failure);
                }
            });
        } catch (RuntimeException brokenSink) {
            outcome.completeExceptionally(brokenSink);
        }
        return outcome;
    }
}
