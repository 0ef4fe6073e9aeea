package com.example.threading.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Waits in a test for something the server does on its own threads (a gauge reaching a value, a pool going
 * idle, a request being parked), with a deadline instead of a sleep: the test goes on as soon as the condition
 * holds, and fails with a message naming what did not happen when it does not.
 * <pre>{@code
 * Await.until(() -> parked() == 100, Duration.ofSeconds(30), "100 polls parked");
 * Answer health = Await.until(() -> admin.healthcheck(), h -> h.status() == 500, Duration.ofSeconds(5), "pool unhealthy");
 * }</pre>
 *
 * <p>Thread-safety: stateless; the condition is evaluated on the calling thread only.
 */
public final class Await {

    /** How often the condition is evaluated. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(10);

    private Await() {
    }

    /** Returns once {@code condition} holds; throws {@link AssertionError} naming {@code what} if it does not within {@code bound}. */
    public static void until(BooleanSupplier condition, Duration bound, String what) {
        until(condition::getAsBoolean, holds -> holds, bound, what);
    }

    /**
     * Evaluates {@code probe} until {@code done} accepts its value and returns that value; throws
     * {@link AssertionError} naming {@code what} and the last value seen if none is accepted within {@code bound}.
     */
    public static <T> T until(Supplier<T> probe, Predicate<? super T> done, Duration bound, String what) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            T value = probe.get();
            if (done.test(value)) {
                return value;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + bound + ": " + what + " (last seen: " + value + ")");
            }
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for: " + what, e);
            }
        }
    }
}
