package com.example.threading.work;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The same "wait for data" for every pattern: the calling thread sleeps, as it would on a slow downstream.
 */
final class SimulatedWork {

    private static final Logger LOG = LoggerFactory.getLogger(SimulatedWork.class);
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private SimulatedWork() {
    }

    /**
     * Sleeps {@code ms} on the calling thread and describes who waited; interrupted sleeps end early with the flag kept.
     * {@code ms=0} does not call {@code Thread.sleep(0)}, which is a {@code sched_yield} system call, not a wait of zero.
     */
    static WorkResult waitFor(String pattern, long ms) {
        long start = System.nanoTime();
        if (ms > 0) {
            try {
                Thread.sleep(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        Thread current = Thread.currentThread();
        // In the request's context wherever the pattern ran it: its request_id and trace_id are on this line.
        LOG.debug("{}: waited {} ms on {}", pattern, waitedMs, current.getName());
        return new WorkResult(pattern, ms, waitedMs, current.getName(), isVirtual(current));
    }

    /** {@code Thread.isVirtual()} where the JDK has it (21+), {@code false} on 17. */
    static boolean isVirtual(Thread thread) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(thread);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual failed", e);
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
