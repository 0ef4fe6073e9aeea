package com.example.threading.work;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The anti-pattern as an {@link Executor}: every task gets a new platform thread that ends with it.
 *
 * <p>Thread-safety: {@link #execute} may be called from any thread; the counters are atomics, read by gauges from any
 * thread. A thread is counted live before it starts and uncounted by itself when its task ends, so
 * {@link #liveThreads()} never undercounts. A thread the JVM cannot start is uncounted at once and becomes a
 * {@link RejectedExecutionException}. {@code ThreadPerRequestExecutorTest} checks it with five tasks held at once: each
 * on a new thread, counted live while it runs and uncounted when it ends.
 */
final class ThreadPerRequestExecutor implements Executor {

    private final String namePrefix;
    private final AtomicLong startedThreads = new AtomicLong();
    private final AtomicInteger liveThreads = new AtomicInteger();

    ThreadPerRequestExecutor(String namePrefix) {
        this.namePrefix = namePrefix;
    }

    @Override
    public void execute(Runnable task) {
        Thread thread = new Thread(() -> {
            try {
                task.run();
            } finally {
                liveThreads.decrementAndGet();
            }
        }, namePrefix + startedThreads.incrementAndGet());
        liveThreads.incrementAndGet();
        try {
            thread.start();
        } catch (OutOfMemoryError noThread) { // "unable to create native thread": refused, like a full pool
            liveThreads.decrementAndGet();
            throw new RejectedExecutionException("no thread could be started for the task: " + noThread.getMessage(), noThread);
        }
    }

    /** Threads started and not yet finished. */
    int liveThreads() {
        return liveThreads.get();
    }

    /** Threads started since the service began. */
    long startedThreads() {
        return startedThreads.get();
    }
}
