package com.example.threading.jetty;

import com.codahale.metrics.health.HealthCheck;
import io.dropwizard.core.setup.Environment;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * Unhealthy while Jetty's application thread pool is low on threads (Jetty's own {@code isLowOnThreads}:
 * no idle thread left beyond the low-threads threshold once queued jobs are counted), i.e. new requests
 * queue. The admin connector has its own pool, so this check still answers when the application pool is
 * saturated.
 *
 * <p>Thread-safety: the pool is published once, through the volatile field, by the server-started callback on the
 * thread that starts the server; {@link #check()} runs on admin threads, possibly several at once, reads the field once
 * and then only the pool's thread-safe counters. A check before the write says "server not started".
 * {@code WorkPatternsTest} checks it on the admin port during a burst that takes every Jetty thread: it says low on
 * threads.
 */
public final class JettyThreadPoolHealthCheck extends HealthCheck {

    private volatile QueuedThreadPool pool;

    /** Registers the check and binds it to the server's thread pool when the server starts. */
    public static void register(Environment environment) {
        JettyThreadPoolHealthCheck check = new JettyThreadPoolHealthCheck();
        environment.lifecycle().addServerLifecycleListener(server -> check.bind(server.getThreadPool()));
        environment.healthChecks().register("jetty-thread-pool", check);
    }

    private void bind(ThreadPool threadPool) {
        if (threadPool instanceof QueuedThreadPool queued) {
            pool = queued;
        }
    }

    @Override
    protected Result check() {
        QueuedThreadPool current = pool;
        if (current == null) {
            return Result.unhealthy("server not started");
        }
        String state = String.format("%d of %d threads busy, %d idle, %d jobs queued",
                current.getBusyThreads(), current.getMaxThreads(), current.getIdleThreads(), current.getQueueSize());
        return current.isLowOnThreads() ? Result.unhealthy("low on threads: " + state) : Result.healthy(state);
    }
}
