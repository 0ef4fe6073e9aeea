package com.example.threading.testing;

import java.util.List;

/**
 * Threads for the scenarios Lincheck's model checker runs: each action on a thread of its own, all started before
 * any is joined. An action that throws fails the scenario: the checker sees every thread it starts, and reports the
 * throw with the interleaving that led to it.
 */
public final class Interleavings {

    private Interleavings() {
    }

    /** Runs each of {@code actions} on a thread of its own, all at once, and joins them. */
    public static void onThreads(List<Runnable> actions) {
        Thread[] threads = new Thread[actions.size()];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(actions.get(t));
        }
        for (Thread thread : threads) {
            thread.start();
        }
        for (Thread thread : threads) {
            join(thread);
        }
    }

    /** Waits for {@code thread} to end; being interrupted meanwhile is an error of the scenario. */
    public static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException interrupted) {
            throw new AssertionError(interrupted);
        }
    }

    /**
     * Joins every thread in {@code threads}, and those added to it meanwhile (threads that start threads), until none
     * is left; the list is guarded by its own monitor, as its writers add under it.
     */
    public static void joinAll(List<Thread> threads) {
        for (int joined = 0; ; joined++) {
            Thread next;
            synchronized (threads) {
                if (joined == threads.size()) {
                    return;
                }
                next = threads.get(joined);
            }
            join(next);
        }
    }
}
