package com.example.threading.jetty.virtual;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.server.ServerFactory;
import io.dropwizard.core.setup.Environment;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.component.Container;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the application connector's requests on virtual threads, at most {@code serverVirtualThreads.maxConcurrent}
 * at once: installs a {@link BoundedVirtualThreadExecutor} as the virtual-threads executor of Jetty's application
 * {@link QueuedThreadPool} before the pool starts. Jetty then hands every blocking task (an HTTP/1.1 request, an
 * HTTP/2 stream) to it; the platform pool keeps the selectors and non-blocking work, and the admin connector keeps
 * its own platform pool.
 *
 * <p>Refuses to start (an {@link IllegalStateException} out of {@code Application.run}, so a non-zero exit) when the
 * switch is on below JDK 21, and when Dropwizard's own {@code server.enableVirtualThreads} is on, whose bound is
 * {@code server.maxThreads} (200) by accident.
 */
public final class ServerVirtualThreads {

    /** Prefix of the metrics registered here. */
    public static final String METRIC_PREFIX = "server.virtual-threads";

    /** Name prefix of the virtual threads that run requests ({@code dw-virtual-0}, {@code dw-virtual-1}, ...). */
    public static final String THREAD_NAME_PREFIX = "dw-virtual-";

    private static final Logger LOG = LoggerFactory.getLogger(ServerVirtualThreads.class);

    private final BoundedVirtualThreadExecutor executor;

    private ServerVirtualThreads(BoundedVirtualThreadExecutor executor) {
        this.executor = executor;
    }

    /**
     * Checks the switch against the JDK and Dropwizard's own flag, and when it is on, makes the server built after
     * this call run its application requests on virtual threads, and registers the {@code server.virtual-threads.*}
     * gauges.
     */
    public static void register(Environment environment, ServerVirtualThreadsConfiguration configuration,
                                ServerFactory serverFactory) {
        refuseDropwizardsOwnFlag(serverFactory);
        if (!configuration.isEnabled()) {
            return;
        }
        requireVirtualThreads();
        Executor threads = VirtualThreads.getNamedVirtualThreadsExecutor(THREAD_NAME_PREFIX);
        if (!(threads instanceof ExecutorService threadPerTask)) {
            throw new IllegalStateException("JDK " + Runtime.version() + " gave no virtual-thread-per-task executor");
        }
        ServerVirtualThreads installer = new ServerVirtualThreads(
                new BoundedVirtualThreadExecutor(threadPerTask, configuration.getMaxConcurrent()));
        environment.lifecycle().addEventListener(installer.new InstallOnApplicationPool());
        installer.registerGauges(environment.metrics());
    }

    private static void refuseDropwizardsOwnFlag(ServerFactory serverFactory) {
        if (serverFactory instanceof AbstractServerFactory factory && factory.isEnableVirtualThreads()) {
            throw new IllegalStateException("server.enableVirtualThreads is on: Dropwizard 5.0.1 then runs requests on "
                    + "virtual threads but lets only server.maxThreads (" + factory.getMaxThreads() + ") run at once, "
                    + "and below JDK 21 Jetty silently keeps platform threads. Turn it off and set "
                    + "serverVirtualThreads.enabled (SERVER_VIRTUAL_THREADS=true) with its own bound "
                    + "serverVirtualThreads.maxConcurrent (VIRTUAL_MAX_CONCURRENT) instead; see docs/virtual-threads.md");
        }
    }

    private static void requireVirtualThreads() {
        if (Runtime.version().feature() < 21 || !VirtualThreads.areSupported()) {
            throw new IllegalStateException("serverVirtualThreads.enabled (SERVER_VIRTUAL_THREADS=true) needs JDK 21+ "
                    + "(virtual threads), but this JVM is " + Runtime.version() + " (" + System.getProperty("java.home")
                    + "). Run it on JDK 21+, or set SERVER_VIRTUAL_THREADS=false to run requests on the platform pool "
                    + "(server.maxThreads).");
        }
    }

    private void registerGauges(MetricRegistry metrics) {
        gauge(metrics, "max-concurrent", executor::maxConcurrent);
        gauge(metrics, "running", executor::running);
        gauge(metrics, "waiting", executor::waiting);
        gauge(metrics, "started", executor::started);
        gauge(metrics, "waited", executor::waited);
        gauge(metrics, "interrupted", executor::interrupted);
    }

    private static <T extends Number> void gauge(MetricRegistry metrics, String suffix, Supplier<T> value) {
        String name = MetricRegistry.name(METRIC_PREFIX, suffix);
        metrics.remove(name);
        metrics.register(name, (Gauge<T>) value::get);
    }

    private void install(ThreadPool threadPool) {
        if (!(threadPool instanceof QueuedThreadPool pool)) {
            throw new IllegalStateException("Application thread pool is a " + threadPool.getClass().getName()
                    + ", not Jetty's QueuedThreadPool: cannot run its requests on virtual threads");
        }
        if (pool.isStarted()) {
            throw new IllegalStateException("Application thread pool '" + pool.getName() + "' already started: "
                    + "its virtual-threads executor can no longer be set");
        }
        pool.setVirtualThreadsExecutor(executor);
        if (pool.getVirtualThreadsExecutor() != executor) {
            // QueuedThreadPool swallows the UnsupportedOperationException of a JVM without virtual threads.
            throw new IllegalStateException("Jetty refused the virtual-threads executor on JDK " + Runtime.version());
        }
    }

    private void describe(Server server) {
        if (!(server.getThreadPool() instanceof QueuedThreadPool pool)) {
            return;
        }
        for (Connector connector : server.getConnectors()) {
            if (connector.getExecutor() == pool) {
                LOG.info("Virtual threads: connector '{}' {} runs its requests on virtual threads '{}<n>', at most {} "
                        + "at once (serverVirtualThreads.maxConcurrent; server.maxThreads = {} now bounds only the "
                        + "platform pool '{}' of selectors and non-blocking work); reserved threads = {}",
                        connector.getName(), connector.getProtocols(), THREAD_NAME_PREFIX, executor.maxConcurrent(),
                        pool.getMaxThreads(), pool.getName(), pool.getMaxReservedThreads());
            }
        }
        if (pool.getMaxReservedThreads() > 0) {
            // Eat-what-you-kill would then run blocking requests on the selector's platform thread.
            LOG.error("Virtual threads: pool '{}' keeps {} reserved thread(s), so some requests run on platform "
                    + "threads (EPC); leave server reserved threads at Jetty's default", pool.getName(), pool.getMaxReservedThreads());
        }
    }

    /**
     * Installs the executor while the application pool exists but has not started (Dropwizard's SetUIDListener
     * starts the pool early in the Server's "starting" event, so that event is too late); as a Container.Listener
     * it is told of the pool as soon as Dropwizard attaches it to the Server. Logs the result once started and
     * refuses new tasks once stopped.
     */
    private final class InstallOnApplicationPool implements LifeCycle.Listener, Container.Listener {

        @Override
        public void beanAdded(Container parent, Object child) {
            if (parent instanceof Server server && child == server.getThreadPool()) {
                install(server.getThreadPool());
            }
        }

        @Override
        public void beanRemoved(Container parent, Object child) {
            // nothing to undo
        }

        @Override
        public void lifeCycleStarted(LifeCycle event) {
            if (event instanceof Server server) {
                describe(server);
            }
        }

        @Override
        public void lifeCycleStopped(LifeCycle event) {
            if (event instanceof Server) {
                executor.shutdown();
            }
        }
    }
}
