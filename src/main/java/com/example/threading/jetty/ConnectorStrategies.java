package com.example.threading.jetty;

import java.util.List;
import java.util.function.ToLongFunction;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.ExecutionStrategy;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.strategy.AdaptiveExecutionStrategy;

/**
 * The execution strategies of one started connector's selectors, summed: how many tasks each sub-strategy
 * (PC, PIC, PEC, EPC) ran since start, plus the reserved threads EPC depends on.
 */
public final class ConnectorStrategies {

    private final String name;
    private final ServerConnector connector;
    private final List<AdaptiveExecutionStrategy> strategies;

    private ConnectorStrategies(String name, ServerConnector connector, List<AdaptiveExecutionStrategy> strategies) {
        this.name = name;
        this.connector = connector;
        this.strategies = strategies;
    }

    /** Collects the strategies of a started connector's selectors; {@code name} is unique among the server's connectors. */
    public static ConnectorStrategies of(String name, ServerConnector connector) {
        List<AdaptiveExecutionStrategy> strategies = selectors(connector).stream()
                .map(selector -> selector.getBean(AdaptiveExecutionStrategy.class))
                .filter(strategy -> strategy != null)
                .toList();
        return new ConnectorStrategies(name, connector, strategies);
    }

    private static List<ManagedSelector> selectors(ServerConnector connector) {
        return List.copyOf(connector.getSelectorManager().getBeans(ManagedSelector.class));
    }

    /** The connector's name as used in metric names (Jetty's connector name, made unique). */
    public String name() {
        return name;
    }

    /** Selectors of the connector that run an {@link AdaptiveExecutionStrategy}. */
    public int adaptiveSelectors() {
        return strategies.size();
    }

    /** Selectors of the connector, whatever strategy they run. */
    public int selectors() {
        return selectors(connector).size();
    }

    /** Tasks run produce-consume: non-blocking tasks the selector thread ran itself before producing again. */
    public long produceConsume() {
        return sum(AdaptiveExecutionStrategy::getPCTasksConsumed);
    }

    /** Tasks run produce-invoke-consume: "either" tasks the selector thread ran in non-blocking mode (no thread was reserved). */
    public long produceInvokeConsume() {
        return sum(AdaptiveExecutionStrategy::getPICTasksExecuted);
    }

    /** Tasks run produce-execute-consume: blocking tasks handed to the thread pool while the selector thread kept producing. */
    public long produceExecuteConsume() {
        return sum(AdaptiveExecutionStrategy::getPECTasksExecuted);
    }

    /** Tasks run execute-produce-consume (eat what you kill): the producing thread ran the task, a reserved thread took over production. */
    public long executeProduceConsume() {
        return sum(AdaptiveExecutionStrategy::getEPCTasksConsumed);
    }

    /** Times a thread that ran a task in EPC mode became the producer again. */
    public long executeProduceConsumeReproduced() {
        return sum(AdaptiveExecutionStrategy::getEPCProduceCount);
    }

    /** Selectors whose strategy is idle right now (no thread producing). */
    public long idleSelectors() {
        return strategies.stream().filter(AdaptiveExecutionStrategy::isIdle).count();
    }

    /** Selectors whose strategy runs its tasks on virtual threads (Dropwizard's {@code enableVirtualThreads}). */
    public long virtualThreadSelectors() {
        return strategies.stream().filter(AdaptiveExecutionStrategy::isUseVirtualThreads).count();
    }

    /** Reserved threads the connector's pool was configured with: -1 = Jetty's heuristic, 0 = none (PEC), or -2 if not a QueuedThreadPool. */
    public int configuredReservedThreads() {
        return connector.getExecutor() instanceof QueuedThreadPool pool ? pool.getReservedThreads() : -2;
    }

    /** Threads the connector's pool can keep reserved for EPC (0 when EPC cannot happen). */
    public int reservedThreadCapacity() {
        return connector.getExecutor() instanceof QueuedThreadPool pool ? pool.getMaxReservedThreads() : 0;
    }

    /** Threads reserved and waiting for an EPC hand-over right now. */
    public int reservedThreadsAvailable() {
        return connector.getExecutor() instanceof QueuedThreadPool pool ? pool.getCurrentReservedThreads() : 0;
    }

    /** Whether the connector also speaks HTTP/2 (each HTTP/2 connection then runs a strategy of its own for its streams). */
    public boolean speaksHttp2() {
        return connector.getProtocols().stream().anyMatch(protocol -> protocol.equals("h2c") || protocol.equals("h2"));
    }

    /** One line for the start-up log: protocols, address, strategy classes of the selectors, reserved threads. */
    public String describe() {
        String strategyClasses = selectors(connector).stream()
                .map(selector -> selector.getBeans(ExecutionStrategy.class).stream()
                        .map(strategy -> strategy.getClass().getSimpleName()).findFirst().orElse("none"))
                .distinct()
                .reduce((a, b) -> a + ", " + b)
                .orElse("none");
        int capacity = reservedThreadCapacity();
        String consequence = capacity > 0
                ? "blocking tasks run EPC (eat what you kill) while a reserved thread is free, PEC otherwise"
                : "no reserved threads, so blocking tasks always run PEC (handed to the pool)";
        return String.format("connector '%s' %s on %s:%d: %d selector(s) run %s; pool '%s' reserves up to %d thread(s): %s",
                name, connector.getProtocols(), connector.getHost() == null ? "*" : connector.getHost(),
                connector.getLocalPort(), selectors(), strategyClasses, poolName(), capacity, consequence);
    }

    private String poolName() {
        return connector.getExecutor() instanceof QueuedThreadPool pool ? pool.getName() : connector.getExecutor().getClass().getSimpleName();
    }

    private long sum(ToLongFunction<AdaptiveExecutionStrategy> counter) {
        return strategies.stream().mapToLong(counter).sum();
    }
}
