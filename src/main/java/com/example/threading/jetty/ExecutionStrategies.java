package com.example.threading.jetty;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.setup.Environment;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.component.Container;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the connectors' execution strategies (Jetty's AdaptiveExecutionStrategy, "eat what you kill") visible and
 * switchable: sets the application pool's reserved threads from the configured {@link ExecutionStrategyMode} before
 * the pool starts, logs what each connector's selectors run once the server has started, and registers gauges
 * {@code jetty.connector.<name>.strategy.{pc,pic,pec,epc,...}} per connector.
 */
public final class ExecutionStrategies {

    /** Prefix of every gauge registered here. */
    public static final String METRIC_PREFIX = "jetty.connector";

    private static final Logger LOG = LoggerFactory.getLogger(ExecutionStrategies.class);

    private final ExecutionStrategyMode mode;
    private final MetricRegistry metrics;

    private ExecutionStrategies(ExecutionStrategyMode mode, MetricRegistry metrics) {
        this.mode = mode;
        this.metrics = metrics;
    }

    /** Applies the configured mode to the application pool before it starts and publishes the strategies once the server has started. */
    public static void register(Environment environment, JettyConfiguration configuration) {
        ExecutionStrategies strategies = new ExecutionStrategies(configuration.getExecutionStrategy(), environment.metrics());
        environment.lifecycle().addEventListener(strategies.new ThreadPoolModeListener());
        environment.lifecycle().addServerLifecycleListener(strategies::publish);
    }

    /**
     * Sets the reserved threads while the application pool exists but has not started. QueuedThreadPool reads them in
     * doStart, and Dropwizard's SetUIDListener (the Server's first lifecycle listener) starts the pool early in the
     * "starting" event, so listening for "starting" is too late. Dropwizard attaches this listener to the Server as soon
     * as the Server (with its pool) is built; as a Container.Listener it is then told of every bean already there.
     */
    private final class ThreadPoolModeListener implements LifeCycle.Listener, Container.Listener {

        @Override
        public void beanAdded(Container parent, Object child) {
            if (parent instanceof Server server && child == server.getThreadPool()) {
                applyMode(server.getThreadPool());
            }
        }

        @Override
        public void beanRemoved(Container parent, Object child) {
            // nothing to undo
        }
    }

    private void applyMode(ThreadPool threadPool) {
        if (!(threadPool instanceof QueuedThreadPool pool)) {
            LOG.warn("Application thread pool is a {}, not a QueuedThreadPool: execution strategy mode {} not applied",
                    threadPool.getClass().getName(), mode);
            return;
        }
        if (pool.isRunning()) {
            throw new IllegalStateException("Application thread pool '" + pool.getName()
                    + "' already started: its reserved threads can no longer be set for mode " + mode);
        }
        mode.applyTo(pool);
        LOG.info("Execution strategy mode {}: application pool '{}' reserved threads = {}", mode, pool.getName(),
                mode.reservedThreads() < 0 ? "Jetty's heuristic" : mode.reservedThreads());
    }

    private void publish(Server server) {
        if (server.getThreadPool() instanceof QueuedThreadPool pool && mode.reservedThreads() >= 0
                && pool.getReservedThreads() != mode.reservedThreads()) {
            LOG.error("Execution strategy mode {} was not applied: application pool '{}' has reserved threads = {}",
                    mode, pool.getName(), pool.getReservedThreads());
        }
        Map<String, Integer> seen = new HashMap<>();
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof ServerConnector serverConnector) {
                int index = seen.merge(connector.getName(), 1, Integer::sum);
                String name = index == 1 ? connector.getName() : connector.getName() + "-" + index;
                ConnectorStrategies connectorStrategies = ConnectorStrategies.of(name, serverConnector);
                LOG.info("Execution strategy: {}", connectorStrategies.describe());
                if (connectorStrategies.speaksHttp2()) {
                    LOG.info("Execution strategy: connector '{}' speaks HTTP/2; each HTTP/2 connection runs its own "
                            + "AdaptiveExecutionStrategy for its streams, which Jetty keeps private (no gauges for it)", name);
                }
                registerGauges(connectorStrategies);
            }
        }
    }

    private void registerGauges(ConnectorStrategies strategies) {
        String prefix = MetricRegistry.name(METRIC_PREFIX, strategies.name());
        gauge(prefix, "strategy.pc", strategies::produceConsume);
        gauge(prefix, "strategy.pic", strategies::produceInvokeConsume);
        gauge(prefix, "strategy.pec", strategies::produceExecuteConsume);
        gauge(prefix, "strategy.epc", strategies::executeProduceConsume);
        gauge(prefix, "strategy.epc-reproduced", strategies::executeProduceConsumeReproduced);
        gauge(prefix, "strategy.selectors", strategies::adaptiveSelectors);
        gauge(prefix, "strategy.idle-selectors", strategies::idleSelectors);
        gauge(prefix, "strategy.virtual-thread-selectors", strategies::virtualThreadSelectors);
        gauge(prefix, "reserved-threads.configured", strategies::configuredReservedThreads);
        gauge(prefix, "reserved-threads.capacity", strategies::reservedThreadCapacity);
        gauge(prefix, "reserved-threads.available", strategies::reservedThreadsAvailable);
    }

    private <T extends Number> void gauge(String prefix, String suffix, Supplier<T> value) {
        String name = MetricRegistry.name(prefix, suffix);
        // A restarted server has new selectors: replace rather than keep reading the stopped ones.
        metrics.remove(name);
        metrics.register(name, (Gauge<T>) value::get);
    }
}
