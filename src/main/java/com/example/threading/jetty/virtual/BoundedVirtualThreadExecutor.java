package com.example.threading.jetty.virtual;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Jetty's virtual-threads executor with an explicit bound: every task gets a thread of its own from a
 * thread-per-task executor (a new virtual thread each), and at most {@code maxConcurrent} tasks run at once. A task
 * beyond the bound waits on its own thread for a permit, so the caller (a Jetty selector) never blocks; the wait
 * parks a virtual thread, not a carrier. Permits are handed out first come, first served.
 *
 * <p>It replaces what {@code server.enableVirtualThreads} installs in Dropwizard 5.0.1: Jetty's
 * {@code VirtualThreadPool(server.maxThreads)}, whose semaphore lets only 200 requests run at once, hands a permit
 * back that it never took when a waiting thread is interrupted, and counts nothing.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Jetty, from any thread (selectors, HTTP/2 producers, request threads), at any time: {@link #execute} hands the
 *       task to a new thread and never blocks. Whatever the caller did before {@code execute} happens-before the task
 *       runs (thread start).</li>
 *   <li>Each task's own thread takes its permit (waiting parked, first come first served) and gives it back when the
 *       task ends; a thread interrupted while waiting took none and gives none back.</li>
 *   <li>Readers (a metrics scrape, any thread): the counters are atomics and the semaphore's count, each current, not a
 *       consistent snapshot of one another.</li>
 *   <li>The thread that stops the server calls {@link #shutdown}; tasks handed over afterwards are refused, those
 *       already handed over run to their end.</li>
 * </ul>
 * {@code BoundedVirtualThreadExecutorTest} checks it on real threads, {@code BoundedVirtualThreadExecutorLincheckTest}
 * over the interleavings of three tasks with a bound of one, one waiter interrupted.
 */
public final class BoundedVirtualThreadExecutor implements Executor {

    private final ExecutorService threadPerTask;
    private final int maxConcurrent;
    private final Semaphore permits;
    private final AtomicInteger waiting = new AtomicInteger();
    private final LongAdder started = new LongAdder();
    private final LongAdder waited = new LongAdder();
    private final LongAdder interrupted = new LongAdder();

    /** Runs each task on a new thread of {@code threadPerTask}, at most {@code maxConcurrent} at once. */
    public BoundedVirtualThreadExecutor(ExecutorService threadPerTask, int maxConcurrent) {
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be at least 1, was " + maxConcurrent);
        }
        this.threadPerTask = threadPerTask;
        this.maxConcurrent = maxConcurrent;
        this.permits = new Semaphore(maxConcurrent, true);
    }

    /** Starts a thread for {@code task}; it runs as soon as fewer than {@code maxConcurrent} tasks run. */
    @Override
    public void execute(Runnable task) {
        threadPerTask.execute(() -> runWithPermit(task));
        started.increment();
    }

    private void runWithPermit(Runnable task) {
        if (!permits.tryAcquire()) {
            waited.increment();
            waiting.incrementAndGet();
            try {
                permits.acquire();
            } catch (InterruptedException e) {
                // No permit was taken, so none is given back; the task is dropped as Jetty drops refused ones.
                interrupted.increment();
                Thread.currentThread().interrupt();
                closeIfCloseable(task);
                return;
            } finally {
                waiting.decrementAndGet();
            }
        }
        try {
            task.run();
        } finally {
            permits.release();
        }
    }

    private static void closeIfCloseable(Runnable task) {
        if (task instanceof Closeable closeable) {
            try {
                closeable.close();
            } catch (IOException | RuntimeException ignored) {
                // the task is being dropped anyway
            }
        }
    }

    /** Refuses new tasks ({@link RejectedExecutionException}); tasks already handed over run to their end. */
    public void shutdown() {
        threadPerTask.shutdown();
    }

    /** The bound: most tasks running at once. */
    public int maxConcurrent() {
        return maxConcurrent;
    }

    /** Tasks running right now (holding a permit). */
    public int running() {
        return maxConcurrent - permits.availablePermits();
    }

    /** Tasks whose thread waits for a permit right now. */
    public int waiting() {
        return waiting.get();
    }

    /** Tasks handed over since start. */
    public long started() {
        return started.sum();
    }

    /** Tasks that found every permit taken and had to wait, since start. */
    public long waited() {
        return waited.sum();
    }

    /** Tasks dropped because their thread was interrupted while waiting for a permit, since start. */
    public long interrupted() {
        return interrupted.sum();
    }
}
