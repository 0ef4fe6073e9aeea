package com.example.threading.events.websocket;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sockets' work on the container's threads, through one queue that at most {@code maxDrainers} tasks of the
 * container drain: a task is queued, and handed to the container only when fewer than {@code maxDrainers} drainers
 * run. One event reaching a room's sockets is one task per socket; handed to the container one by one, each would
 * wake an idle thread of its pool (a futex call and a context switch per socket per event: a tenth of the server's CPU
 * at 78,000 messages a second on 2 cores), where a drainer that is already running takes the next task without
 * waking anyone. The sockets' tasks never block (sends are queued to Jetty), so a few drainers keep the cores busy.
 *
 * <p>Thread-safety: any thread may call {@link #execute}. A task is added to the queue before the count of drainers
 * is read, and a drainer that finds the queue empty gives up its count before it looks at the queue once more, so a
 * task is never left without a drainer. Each task runs once, on a drainer; the queue's hand-over is a happens-before
 * edge from {@code execute} to the task. {@code DrainingExecutorLincheckTest} checks it over the interleavings of three
 * callers; {@code DrainingExecutorTest} on real threads.
 */
final class DrainingExecutor implements Executor {

    private static final Logger LOG = LoggerFactory.getLogger(DrainingExecutor.class);

    private final Executor threads;
    private final int maxDrainers;
    private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private final AtomicInteger drainers = new AtomicInteger();

    /** Runs the tasks on {@code threads}, at most {@code maxDrainers} of them at once. */
    DrainingExecutor(Executor threads, int maxDrainers) {
        if (maxDrainers < 1) {
            throw new IllegalArgumentException("at least one drainer, not " + maxDrainers);
        }
        this.threads = threads;
        this.maxDrainers = maxDrainers;
    }

    /**
     * Queues {@code task}; a drainer runs it, on the calling thread when the container takes no more tasks and no
     * other drainer runs.
     */
    @Override
    public void execute(Runnable task) {
        tasks.add(task);
        startDrainer();
    }

    private void startDrainer() {
        int running;
        do {
            running = drainers.get();
            if (running >= maxDrainers) {
                return; // a running drainer takes the task
            }
        } while (!drainers.compareAndSet(running, running + 1));
        try {
            threads.execute(this::drain);
        } catch (RejectedExecutionException full) {
            // The container takes no more tasks (it stops, or its queue is full): a drainer still running takes the
            // task; with none, the caller drains. Callers never drain two at a time, so two of them that hold their
            // sockets' locks never wait for each other's.
            if (drainers.decrementAndGet() == 0 && drainers.compareAndSet(0, 1)) {
                drain();
            }
        }
    }

    private void drain() {
        try {
            for (Runnable task = tasks.poll(); task != null; task = tasks.poll()) {
                try {
                    task.run();
                } catch (RuntimeException bug) {
                    LOG.error("a socket's task failed; the next ones run", bug);
                }
            }
        } finally {
            drainers.decrementAndGet();
            if (!tasks.isEmpty()) {
                startDrainer(); // queued after this drainer's last look and before it gave up its count
            }
        }
    }
}
