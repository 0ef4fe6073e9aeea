package com.example.threading.jmh;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.thread.ExecutionStrategy;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.strategy.AdaptiveExecutionStrategy;
import org.eclipse.jetty.util.thread.strategy.ProduceConsume;
import org.eclipse.jetty.util.thread.strategy.ProduceExecuteConsume;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Jetty's three execution strategies on the same producer: each benchmark thread is a "selector" with its own
 * connection that produces {@value #BATCH} requests per invocation, and its own strategy instance over one shared
 * {@link QueuedThreadPool} (Jetty's defaults, reserved threads by Jetty's heuristic). One op = one request handled.
 * <ul>
 *   <li>{@code PC} — {@link ProduceConsume}: the producing thread handles every request itself.</li>
 *   <li>{@code PEC} — {@link ProduceExecuteConsume}: every request is handed to the pool.</li>
 *   <li>{@code AES} — {@link AdaptiveExecutionStrategy} ("eat what you kill"): the producing thread handles the request
 *       and hands production to a reserved thread if one is free (EPC), else hands the request to the pool (PEC).</li>
 * </ul>
 * Workloads: {@code cpu-only} (handling reads the request's 8 KiB and hashes it) and {@code some-block} (also, one
 * request in {@value #BLOCK_ONE_IN} blocks {@value #BLOCK_MICROS} µs: head-of-line blocking for PC).
 * The default run is short; docs/jetty.md ("The benchmark") gives the full run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(2)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ExecutionStrategyBenchmark {

    /** Requests produced per invocation (per "selector wake-up"). */
    static final int BATCH = 16;

    /** In the {@code some-block} workload, every this-many-th request blocks. */
    static final int BLOCK_ONE_IN = 4;

    /** How long a blocking request parks. */
    static final int BLOCK_MICROS = 100;

    /** PC, PEC or AES. */
    @Param({"PC", "PEC", "AES"})
    public String strategy;

    /** cpu-only or some-block. */
    @Param({"cpu-only", "some-block"})
    public String workload;

    /** Reserved threads of the pool (what AES needs for EPC): -1 = Jetty's heuristic, min(cores, maxThreads / 10). */
    @Param({"-1"})
    public int reservedThreads;

    QueuedThreadPool pool;

    /** Starts the shared pool the way Jetty's server pool starts: 200 threads max, 8 min, reserved threads as configured. */
    @Setup(Level.Trial)
    public void startPool() throws Exception {
        pool = new QueuedThreadPool(200, 8);
        pool.setName("bench-pool");
        pool.setReservedThreads(reservedThreads);
        pool.start();
    }

    /** Stops the pool. */
    @TearDown(Level.Trial)
    public void stopPool() throws Exception {
        pool.stop();
    }

    /** One "selector": a connection and the strategy that runs what it produces. */
    @State(Scope.Thread)
    public static class Selector {

        RequestConnection connection;
        ExecutionStrategy executionStrategy;

        /** Builds this thread's connection and strategy over the shared pool. */
        @Setup(Level.Trial)
        public void build(ExecutionStrategyBenchmark benchmark) throws Exception {
            int blockOneIn = benchmark.workload.equals("some-block") ? BLOCK_ONE_IN : 0;
            connection = new RequestConnection(BATCH, blockOneIn, TimeUnit.MICROSECONDS.toNanos(BLOCK_MICROS),
                    ThreadLocalRandom.current().nextLong());
            executionStrategy = switch (benchmark.strategy) {
                case "PC" -> new ProduceConsume(connection, benchmark.pool);
                case "PEC" -> new ProduceExecuteConsume(connection, benchmark.pool);
                case "AES" -> new AdaptiveExecutionStrategy(connection, benchmark.pool);
                default -> throw new IllegalArgumentException("strategy must be PC, PEC or AES: " + benchmark.strategy);
            };
            LifeCycle.start(executionStrategy);
        }

        /** Prints how the adaptive strategy ran the requests (which sub-strategy it picked, how often). */
        @TearDown(Level.Trial)
        public void report() {
            if (executionStrategy instanceof AdaptiveExecutionStrategy adaptive) {
                System.out.printf("%n[AES %s] pc=%d pic=%d pec=%d epc=%d%n", Thread.currentThread().getName(),
                        adaptive.getPCTasksConsumed(), adaptive.getPICTasksExecuted(),
                        adaptive.getPECTasksExecuted(), adaptive.getEPCTasksConsumed());
            }
            LifeCycle.stop(executionStrategy);
        }
    }

    /** Produces one batch of requests through the strategy and waits until all of them are handled. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long handleBatch(Selector selector) throws InterruptedException {
        selector.connection.arm();
        selector.executionStrategy.produce();
        return selector.connection.await();
    }
}
