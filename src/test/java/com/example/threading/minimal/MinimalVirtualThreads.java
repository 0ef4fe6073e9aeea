package com.example.threading.minimal;

import io.dropwizard.core.setup.Environment;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.component.Container;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * Runs every request of the application connector on a virtual thread of its own, at most {@code maxConcurrent} at
 * once (the others park until a place is free): Jetty's {@link VirtualThreadPool}, bounded by its semaphore, set as
 * the virtual-threads executor of the application pool before that pool starts. The platform pool keeps the
 * selectors and non-blocking work; the admin connector keeps its own platform pool. Below JDK 21 it refuses to start
 * rather than silently stay on platform threads.
 *
 * <p>Thread-safety: Jetty tells of the pool on the thread that builds the server, before any pool thread exists;
 * from then on the executor is Jetty's, started and stopped with the pool.
 */
public final class MinimalVirtualThreads implements Container.Listener, LifeCycle.Listener {
    private final int maxConcurrent;

    public MinimalVirtualThreads(int maxConcurrent) {
        this.maxConcurrent = maxConcurrent;
    }

    /** Attached to the Server as Dropwizard builds it; fails at once on a JDK without virtual threads. */
    public void register(Environment environment) {
        if (Runtime.version().feature() < 21) {
            throw new IllegalStateException("virtual threads need JDK 21+, this is " + Runtime.version());
        }
        environment.lifecycle().addEventListener(this);
    }

    @Override
    public void beanAdded(Container parent, Object child) {
        if (parent instanceof Server server && child == server.getThreadPool() && child instanceof QueuedThreadPool pool) {
            VirtualThreadPool virtualThreads = new VirtualThreadPool(maxConcurrent);
            virtualThreads.setName("minimal-virtual-");
            pool.setVirtualThreadsExecutor(virtualThreads);
        }
    }

    @Override
    public void beanRemoved(Container parent, Object child) {
        // nothing to undo
    }
}
