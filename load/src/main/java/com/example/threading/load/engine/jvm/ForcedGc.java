package com.example.threading.load.engine.jvm;

import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.service.Target;
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
 * <p>{@code System.gc()} may return without collecting: under G1 on JDK 17, when a thread of the service is in a
 * JNI critical region at that moment (the GC locker), the full collection is skipped and a young "GCLocker
 * Initiated GC" runs later instead (docs/load.md, {@code soak}, has a run where it happened). So each
 * ask is checked against the full-collection count of the service's {@code jvm.gc.*} metrics, read before and after,
 * and repeated (up to {@link #MAX_ASKS} times) until the count moved; a reading whose count never moved is a failure.
 *
 * <p>Thread-safety: the scenario's thread starts and closes it (or whoever closes the target, through
 * {@link #stop()}) and reads {@link #readings()}; the collections run
 * on the instance's own daemon thread, which adds each reading to a list guarded by the instance's lock. The
 * {@code clock} is called on that thread.
 */
public final class ForcedGc implements AutoCloseable {

    /** The old generation's used bytes under the pool names of G1, Parallel, Serial and generational ZGC. */
    static final List<String> OLD_GEN_POOLS = List.of("jvm.memory.pools.G1-Old-Gen.used", "jvm.memory.pools.PS-Old-Gen.used",
            "jvm.memory.pools.Tenured-Gen.used", "jvm.memory.pools.ZGC-Old-Generation.used");

    /** The full-collection counts (GarbageCollectorMXBean) of G1, Parallel, Serial, generational and single-generation ZGC. */
    static final List<String> FULL_GC_COUNTS = List.of("jvm.gc.G1-Old-Generation.count", "jvm.gc.PS-MarkSweep.count",
            "jvm.gc.MarkSweepCompact.count", "jvm.gc.ZGC-Major-Cycles.count", "jvm.gc.ZGC-Cycles.count");

    /** How often one reading asks for a full collection before it gives up. */
    static final int MAX_ASKS = 3;

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * One forced collection: when it was asked for (seconds on the run's clock), how many asks it took, how long the
     * last task took to answer (the collection's pause plus the round trip), the heap used and old generation right
     * after (MB; NaN when not read), the service's count of full collections then (NaN when its collector's count
     * is not known), and why it failed (empty when it did not).
     */
    public record Reading(double atSeconds, int asks, double taskMs, double heapUsedMb, double oldGenMb, double fullCollections,
                          String failure) {

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
     * Starts forcing a collection of {@code service} {@code firstAfter} from now and then every {@code period}
     * ({@code clock} stamps each reading); empty when the target has no admin connector.
     */
    public static Optional<ForcedGc> every(Target target, Duration firstAfter, Duration period, DoubleSupplier clock) {
        return target.adminUri().map(admin -> every(admin, firstAfter, period, clock));
    }

    /** As {@link #every(Target, Duration, Duration, DoubleSupplier)}, for the admin connector at {@code admin}. */
    static ForcedGc every(URI admin, Duration firstAfter, Duration period, DoubleSupplier clock) {
        return new ForcedGc(admin, firstAfter, period, clock);
    }

    private void collectOnce() {
        try {
            add(collect(http, task, metrics, clock.getAsDouble()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * One forced collection of the service whose admin connector is at {@code admin}, asked for now on the caller's
     * thread (repeated as {@link #every} does until the full-collection count moved), and the heap read right after.
     */
    public static Reading once(URI admin) throws InterruptedException {
        try (SimpleHttp http = SimpleHttp.http1()) {
            return collect(http, admin.resolve("/tasks/gc"), admin.resolve("/metrics"), 0);
        }
    }

    private static Reading collect(SimpleHttp http, URI task, URI metrics, double at) throws InterruptedException {
        try {
            String before = readMetrics(http, metrics);
            for (int ask = 1; ask <= MAX_ASKS; ask++) {
                long start = System.nanoTime();
                SimpleHttp.Answer answer = http.post(task, TIMEOUT);
                double taskMs = LatencySummary.round((System.nanoTime() - start) / 1e6);
                if (answer.status() != 200) {
                    return new Reading(at, ask, taskMs, Double.NaN, Double.NaN, Double.NaN, "POST " + task + ": " + (answer.status() == 0 ? answer.failure()
                            : "status " + answer.status()));
                }
                String after = readMetrics(http, metrics);
                Reading reading = reading(at, ask, taskMs, after);
                if (!reading.ok() || !(fullCollections(after) <= fullCollections(before))) {
                    // Read, and the count moved (or cannot be compared: a collector whose count is not known).
                    return reading;
                }
                before = after;
                Thread.sleep(200);
            }
            return new Reading(at, MAX_ASKS, Double.NaN, Double.NaN, Double.NaN, fullCollections(before), "the service did not collect in " + MAX_ASKS + " asks (its "
                    + "full-collection count did not move: System.gc() skipped, e.g. while a JNI critical region held G1's GC locker)");
        } catch (RuntimeException e) {
            return new Reading(at, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, e.toString());
        }
    }

    private static String readMetrics(SimpleHttp http, URI metrics) throws InterruptedException {
        SimpleHttp.Answer read = http.get(metrics, TIMEOUT);
        if (read.status() != 200) {
            throw new IllegalStateException("GET " + metrics + ": " + (read.status() == 0 ? read.failure() : "status " + read.status()));
        }
        return read.body();
    }

    /** The service's count of full collections in the JSON of /metrics; NaN when its collector's count is not there. */
    static double fullCollections(String metricsJson) {
        JvmSample sample = JvmWatch.fromMetrics(0, metricsJson, Double.NaN, FULL_GC_COUNTS);
        return sample.gauges().values().stream().filter(Double::isFinite).findFirst().orElse(Double.NaN);
    }

    /** The reading from the JSON of /metrics read right after the {@code asks}-th task, which took {@code taskMs}. */
    static Reading reading(double atSeconds, int asks, double taskMs, String metricsJson) {
        JvmSample sample = JvmWatch.fromMetrics(atSeconds, metricsJson, Double.NaN, OLD_GEN_POOLS);
        double oldGen = sample.gauges().values().stream().filter(Double::isFinite).findFirst().orElse(Double.NaN) / (1 << 20);
        double full = fullCollections(metricsJson);
        return Double.isFinite(sample.heapUsedMb()) ? new Reading(atSeconds, asks, taskMs, sample.heapUsedMb(), oldGen, full, "")
                : new Reading(atSeconds, asks, taskMs, Double.NaN, oldGen, full, "/metrics has no " + JvmWatch.HEAP_USED);
    }

    private synchronized void add(Reading reading) {
        readings.add(reading);
    }

    /** The readings so far, in order. */
    public synchronized List<Reading> readings() {
        return List.copyOf(readings);
    }

    /** Stops forcing collections (waits for one in progress) and closes the client; may be called more than once. */
    @Override
    public void close() throws InterruptedException {
        ticker.shutdownNow();
        ticker.awaitTermination(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
        http.close();
    }

    /** {@link #close()} for a caller that cannot wait: an interrupt while waiting is passed on to the calling thread. */
    public void stop() {
        try {
            close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
