package com.example.threading.jetty.virtual;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;

/**
 * {@link BoundedVirtualThreadExecutor}'s permit handling with the seeded bug of Jetty 12.1's {@code VirtualThreadPool},
 * kept for {@code BoundedVirtualThreadExecutorLincheckTest} to catch: a thread interrupted while waiting for a
 * permit gives one back that it never took, so the bound grows by one with each such interrupt.
 */
final class BoundedVirtualThreadExecutorReleaseOnInterruptFixture implements Executor {

    private final ExecutorService threadPerTask;
    private final int maxConcurrent;
    private final Semaphore permits;

    BoundedVirtualThreadExecutorReleaseOnInterruptFixture(ExecutorService threadPerTask, int maxConcurrent) {
        this.threadPerTask = threadPerTask;
        this.maxConcurrent = maxConcurrent;
        this.permits = new Semaphore(maxConcurrent, true);
    }

    @Override
    public void execute(Runnable task) {
        threadPerTask.execute(() -> {
            try {
                permits.acquire();
                task.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                permits.release(); // the bug: also when acquire() was interrupted and took nothing
            }
        });
    }

    int running() {
        return maxConcurrent - permits.availablePermits();
    }
}
