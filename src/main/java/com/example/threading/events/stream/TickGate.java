package com.example.threading.events.stream;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Whether this instance's ticker publishes this period. On one instance it always does; instances sharing a stream
 * let one of them tick (a leader), so N instances do not make N ticks per period.
 *
 * <p>{@link #mayTick} is called by the ticker's scheduler thread, one call at a time; the stage may
 * complete on any thread. Implementations must not block the caller and must complete within a bounded time.
 */
public interface TickGate {

    /** Ticks every period: the in-process stream's gate. */
    TickGate ALWAYS = () -> CompletableFuture.completedFuture(true);

    /** Completes with true when this instance should publish this period's tick, false when another instance does. */
    CompletionStage<Boolean> mayTick();
}
