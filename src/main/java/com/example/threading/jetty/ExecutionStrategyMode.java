package com.example.threading.jetty;

import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * How the application connector's selectors run the tasks they produce. Both modes keep Jetty's
 * {@code AdaptiveExecutionStrategy}; they differ in whether the thread pool reserves threads for it.
 * In config.yml: {@code adaptive} or {@code produce-execute-consume}.
 *
 * <p>{@link #applyTo} must run before the pool starts, on the thread that builds the server;
 * {@link ExecutionStrategies} checks that the pool is not running yet and refuses with an IllegalStateException
 * otherwise.
 */
public enum ExecutionStrategyMode {

    /**
     * Jetty's default, "eat what you kill": a selector thread that produced a blocking task hands production to a
     * reserved thread and runs the task itself with hot caches (EPC); it falls back to PEC while no thread is reserved.
     */
    ADAPTIVE(-1),

    /**
     * No reserved threads: every blocking task is handed to the pool (PEC) and the selector thread keeps
     * producing. Jetty's supported way to get produce-execute-consume on a connector.
     */
    PRODUCE_EXECUTE_CONSUME(0);

    private final int reservedThreads;

    ExecutionStrategyMode(int reservedThreads) {
        this.reservedThreads = reservedThreads;
    }

    /** Reserved threads this mode sets on the pool; -1 is Jetty's heuristic (min(cores, maxThreads / 10)). */
    public int reservedThreads() {
        return reservedThreads;
    }

    /** Sets the pool's reserved threads; the pool must not be started yet (Jetty reads the value in doStart). */
    void applyTo(QueuedThreadPool pool) {
        pool.setReservedThreads(reservedThreads);
    }
}
