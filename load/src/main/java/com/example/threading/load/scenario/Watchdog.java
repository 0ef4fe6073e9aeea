package com.example.threading.load.scenario;

import java.time.Duration;

/**
 * The hard time limit of a run: unless closed within {@code limit}, it runs its expiry action (for a
 * scenario: say so and end the JVM, whose shutdown hook kills the service child).
 *
 * <p>Thread-safety: the scenario's thread starts and closes it; its own daemon thread only sleeps and then
 * runs the action. {@link #close()} may be called from any thread, more than once: it interrupts the sleep,
 * and the action never runs once the sleep was interrupted. An action that has already begun is not stopped.
 */
final class Watchdog implements AutoCloseable {

    private final Thread thread;

    private Watchdog(Thread thread) {
        this.thread = thread;
    }

    /** Starts watching: {@code onExpiry} runs on the watchdog's thread if {@link #close()} has not come within {@code limit}. */
    static Watchdog start(Duration limit, Runnable onExpiry) {
        Thread thread = new Thread(() -> {
            try {
                Thread.sleep(limit.toMillis());
            } catch (InterruptedException closedInTime) {
                return;
            }
            onExpiry.run();
        }, "scenario-watchdog");
        thread.setDaemon(true);
        thread.start();
        return new Watchdog(thread);
    }

    /** Stops watching: the run ended in time. */
    @Override
    public void close() {
        thread.interrupt();
    }
}
