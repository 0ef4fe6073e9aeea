package com.example.threading.load.engine;

import com.example.threading.load.target.Target;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

/**
 * Asks a Dropwizard service for a full collection every {@code period} through its admin task
 * {@code POST /tasks/gc} (Dropwizard's built-in {@code GarbageCollectionTask}: {@code System.gc()}, a
 * stop-the-world full collection under G1, Parallel and Serial unless the service runs with
 * {@code -XX:+DisableExplicitGC} or {@code -XX:+ExplicitGCInvokesConcurrent}) and reads, right after it, the heap
 * used and the old generation's pool from its admin {@code /metrics}: the live heap, without the garbage a young
 * collection leaves for the next marking cycle.
 *
 * <p>Thread-safety: the scenario's thread starts and closes it and reads {@link #readings()}; the collections run
 * on the instance's own daemon thread, which adds each reading to a list guarded by the instance's lock. The
 * {@code clock} is called on that thread.
 */
public final class ForcedGc implements AutoCloseable {

    /** The old generation's used bytes under the pool names of G1, Parallel, Serial and generational ZGC. */
    static final List<String> OLD_GEN_POOLS = List.of("jvm.memory.pools.G1-Old-Gen.used", "jvm.memory.pools.PS-Old-Gen.used",
            "jvm.memory.pools.Tenured-Gen.used", "jvm.memory.pools.ZGC-Old-Generation.used");

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * One forced collection: when it was asked for (seconds on the run's clock), how long the task took to answer
     * (the collection's pause plus the round trip), the heap used and old generation right after (MB; NaN when
     * not read), and why it failed (empty when it did not).
     */
    public record Reading(double atSeconds, double taskMs, double heapUsedMb, double oldGenMb, String failure) {

        /** Whether the task answered 200 and the heap could be read after it. */
        public boolean ok() {
            return failure.isEmpty();
        }
    }

    private final URI task;
    private final URI metrics;
    private final SimpleHttp http;
    private final DoubleSupplier clock;
    private final List<Reading> readings = new ArrayList<>();
    private final ScheduledExecutorService ticker;

    private ForcedGc(URI admin, Duration firstAfter, Duration period, DoubleSupplier clock) {
        this.task = admin.resolve("/tasks/gc");
        this.metrics = admin.resolve("/metrics");
        this.http = SimpleHttp.http1();
        this.clock = clock;
        this.ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "forced-gc");
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(this::collectOnce, firstAfter.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Starts forcing a collection of {@code target} {@code firstAfter} from now and then every {@code period}
     * ({@code clock} stamps each reading); empty when the target has no admin connector.
     */
    public static Optional<ForcedGc> every(Target target, Duration firstAfter, Duration period, DoubleSupplier clock) {
        return target.adminUri().map(admin -> new ForcedGc(admin, firstAfter, period, clock));
    }

    private void collectOnce() {
        double at = clock.getAsDouble();
        try {
            long start = System.nanoTime();
            SimpleHttp.Answer answer = http.post(task, TIMEOUT);
            double taskMs = LatencySummary.round((System.nanoTime() - start) / 1e6);
            if (answer.status() != 200) {
                add(new Reading(at, taskMs, Double.NaN, Double.NaN, "POST " + task + ": " + (answer.status() == 0 ? answer.failure()
                        : "status " + answer.status())));
                return;
            }
            SimpleHttp.Answer read = http.get(metrics, TIMEOUT);
            add(read.status() == 200 ? reading(at, taskMs, read.body())
                    : new Reading(at, taskMs, Double.NaN, Double.NaN, "GET " + metrics + ": status " + read.status()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            add(new Reading(at, Double.NaN, Double.NaN, Double.NaN, e.toString()));
        }
    }

    /** The reading from the JSON of /metrics read right after a collection whose task took {@code taskMs}. */
    static Reading reading(double atSeconds, double taskMs, String metricsJson) {
        JvmSample sample = JvmWatch.fromMetrics(atSeconds, metricsJson, Double.NaN, OLD_GEN_POOLS);
        double oldGen = sample.gauges().values().stream().filter(Double::isFinite).findFirst().orElse(Double.NaN) / (1 << 20);
        return Double.isFinite(sample.heapUsedMb()) ? new Reading(atSeconds, taskMs, sample.heapUsedMb(), oldGen, "")
                : new Reading(atSeconds, taskMs, Double.NaN, oldGen, "/metrics has no " + JvmWatch.HEAP_USED);
    }

    private synchronized void add(Reading reading) {
        readings.add(reading);
    }

    /** The readings so far, in order. */
    public synchronized List<Reading> readings() {
        return List.copyOf(readings);
    }

    /** Stops forcing collections (waits for one in progress) and closes the client. */
    @Override
    public void close() throws InterruptedException {
        ticker.shutdownNow();
        ticker.awaitTermination(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
        http.close();
    }
}
