package com.example.threading.jmh;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * A JMH profiler that reports the benchmark JVM's CPU time (all threads: benchmark threads, pool threads, JIT, GC)
 * per operation, as the secondary result {@code ·cpu.time/op} in ns/op. Throughput says how fast; this says how much
 * CPU each op cost, which is what "per CPU" comparisons need.
 *
 * <p>Thread-safety: JMH calls before/after iteration on one harness thread, in order.
 */
public final class CpuTimeProfiler implements InternalProfiler {

    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long cpuAtStart;

    @Override
    public String getDescription() {
        return "process CPU time per operation";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        cpuAtStart = os.getProcessCpuTime();
    }

    @Override
    public Collection<? extends Result> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                        IterationResult result) {
        long cpuNanos = os.getProcessCpuTime() - cpuAtStart;
        long ops = result.getMetadata().getAllOps();
        return List.of(new ScalarResult("cpu.time/op", ops == 0 ? Double.NaN : (double) cpuNanos / ops, "ns/op",
                AggregationPolicy.AVG));
    }
}
