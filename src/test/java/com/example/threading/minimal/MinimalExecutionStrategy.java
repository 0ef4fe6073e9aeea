package com.example.threading.minimal;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.ServerLifecycleListener;
import java.util.List;
import java.util.function.ToLongFunction;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.Container;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.strategy.AdaptiveExecutionStrategy;

/**
 * Sets the application pool's reserved threads before the pool starts (0: every blocking task is handed to the pool,
 * produce-execute-consume; -1: Jetty's heuristic, so eat-what-you-kill while a reserved thread is free), and once
 * the server runs, registers each connector's AdaptiveExecutionStrategy counters as gauges
 * {@code minimal.<connector>.{pc,pic,pec,epc}}, summed over its selectors.
 *
 * <p>Thread-safety: Jetty tells of the pool on the thread that builds the server, before any pool thread exists;
 * the gauges are read on any thread and only read Jetty's own thread-safe counters.
 */
public final class MinimalExecutionStrategy implements Container.Listener, LifeCycle.Listener, ServerLifecycleListener {
    private final int reservedThreads;
    private final MetricRegistry metrics;

    public MinimalExecutionStrategy(int reservedThreads, MetricRegistry metrics) {
        this.reservedThreads = reservedThreads;
        this.metrics = metrics;
    }

    /** Attached to the Server as Dropwizard builds it: Jetty then reports every bean, the pool among them. */
    public void register(Environment environment) {
        environment.lifecycle().addEventListener(this);
        environment.lifecycle().addServerLifecycleListener(this);
    }

    @Override
    public void beanAdded(Container parent, Object child) {
        if (parent instanceof Server server && child == server.getThreadPool() && child instanceof QueuedThreadPool pool) {
            pool.setReservedThreads(reservedThreads); // throws once the pool has started: this is the last moment
        }
    }

    @Override
    public void beanRemoved(Container parent, Object child) {
        // nothing to undo
    }

    @Override
    public void serverStarted(Server server) {
        for (Connector connector : server.getConnectors()) {
            List<AdaptiveExecutionStrategy> strategies = ((ServerConnector) connector).getSelectorManager()
                    .getBeans(ManagedSelector.class).stream().map(s -> s.getBean(AdaptiveExecutionStrategy.class)).toList();
            gauge(connector, "pc", strategies, AdaptiveExecutionStrategy::getPCTasksConsumed);
            gauge(connector, "pic", strategies, AdaptiveExecutionStrategy::getPICTasksExecuted);
            gauge(connector, "pec", strategies, AdaptiveExecutionStrategy::getPECTasksExecuted);
            gauge(connector, "epc", strategies, AdaptiveExecutionStrategy::getEPCTasksConsumed);
        }
    }

    private void gauge(Connector connector, String mode, List<AdaptiveExecutionStrategy> strategies,
                       ToLongFunction<AdaptiveExecutionStrategy> counter) {
        metrics.register(MetricRegistry.name("minimal", connector.getName(), mode),
                (Gauge<Long>) () -> strategies.stream().mapToLong(counter).sum());
    }
}
