package com.example.threading.client;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code via=structured} on JDK 25's preview API (JEP 505): one {@code StructuredTaskScope} per fan-out, opened by a
 * virtual thread of its own (the scope's owner), each call a subtask on a virtual thread of its own, at most
 * {@code width} running at once.
 * <ul>
 *   <li>Collect all, not cancel on the first failure ({@code Joiner.awaitAll()}): a failed call is an outcome that the
 *       answer counts, as in every other way of {@code /fanout}, not a reason to abandon its siblings.</li>
 *   <li>The deadline is the fan-out's timeout ({@code withTimeout}): then the scope is cancelled, which interrupts the
 *       subtasks still running; a virtual thread blocked on a socket gives up at once.</li>
 *   <li>{@code close()} returns only when every subtask has ended, and {@code ended} runs after it: no call outlives
 *       its fan-out's places.</li>
 * </ul>
 * JDK 26 (JEP 525) changes {@code Joiner}: {@code allSuccessfulOrThrow()} returns the results, and {@code onTimeout()}
 * lets a joiner answer with what finished; JDK 27 (JEP 533) previews it once more.
 */
final class ScopedFanout implements StructuredFanout {

    private static final ThreadFactory OWNERS = Thread.ofVirtual().name("fanout-structured-", 0).factory();
    private static final ThreadFactory CALLS = Thread.ofVirtual().name("fanout-structured-call-", 0).factory();

    @Override
    public void start(int n, int width, Duration deadline, Supplier<Throwable> call, Consumer<Throwable> outcome,
                      BooleanSupplier answered, Runnable ended) {
        OWNERS.newThread(() -> {
            Semaphore running = new Semaphore(width);
            long until = System.nanoTime() + deadline.toNanos();
            try (var scope = StructuredTaskScope.open(Joiner.<Void>awaitAll(),
                    config -> config.withTimeout(deadline).withThreadFactory(CALLS))) {
                for (int i = 0; i < n && !answered.getAsBoolean(); i++) {
                    // Past the deadline the scope is cancelled: a fork then never runs, nor gives its place back.
                    if (!running.tryAcquire(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                        break;
                    }
                    scope.fork(() -> {
                        try {
                            outcome.accept(call.get());
                        } finally {
                            running.release();
                        }
                    });
                }
                scope.join();
            } catch (StructuredTaskScope.TimeoutException | InterruptedException cancelled) {
                // the fan-out's timeout has answered; close() cancelled the subtasks still running and waited for them
            } finally {
                ended.run();
            }
        }).start();
    }
}
