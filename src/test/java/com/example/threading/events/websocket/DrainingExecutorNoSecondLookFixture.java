package com.example.threading.events.websocket;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link DrainingExecutor} with a seeded bug, for {@link DrainingExecutorLincheckTest}: a drainer that finds the queue
 * empty gives up its count and does not look at the queue once more, so a task queued in between, by a caller that
 * saw the drainer still counted, is left without one.
 */
final class DrainingExecutorNoSecondLookFixture implements Executor {

    private final Executor threads;
    private final int maxDrainers;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicInteger drainers = new AtomicInteger();

    DrainingExecutorNoSecondLookFixture(Executor threads, int maxDrainers) {
        this.threads = threads;
        this.maxDrainers = maxDrainers;
    }

    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        int running;
        do {
            running = drainers.get();
            if (running >= maxDrainers) {
                return;
            }
        } while (!drainers.compareAndSet(running, running + 1));
        threads.execute(this::drain);
    }

    private void drain() {
        try {
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                task.run();
            }
        } finally {
            drainers.decrementAndGet(); // the seeded bug: no second look at the queue
        }
    }
}
