package com.example.threading.load.engine.traffic;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads of the tool's own clients and schedulers: daemons (they never keep the tool alive), named
 * {@code <name>-<n>}.
 *
 * <p>Thread-safety: a factory may be used from any thread; its counter is atomic.
 */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /** A factory of daemon threads named {@code name-1}, {@code name-2}, .... */
    public static ThreadFactory named(String name) {
        AtomicLong count = new AtomicLong();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
