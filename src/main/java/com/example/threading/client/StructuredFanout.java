package com.example.threading.client;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Runs the calls of one fan-out as the subtasks of one structured task scope (JDK 25, preview). */
interface StructuredFanout {

    /**
     * Starts, on a thread of its own, a scope that forks {@code n} subtasks, at most {@code width} running at once,
     * each handing {@code call}'s outcome ({@code null} for a 2xx) to {@code outcome}; it forks no more once
     * {@code answered}, is cancelled at {@code deadline}, and runs {@code ended} once it is closed: every subtask ended.
     */
    void start(int n, int width, Duration deadline, Supplier<Throwable> call, Consumer<Throwable> outcome,
               BooleanSupplier answered, Runnable ended);
}
