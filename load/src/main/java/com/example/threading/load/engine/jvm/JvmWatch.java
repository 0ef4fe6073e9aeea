package com.example.threading.load.engine.jvm;

import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.service.Target;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Watches one JVM for as long as a run lasts: once a second a {@link JvmSample} (heap used, threads, open files,
 * chosen gauges), plus the JVM's GC log, read at the end. The service is read from its admin {@code /metrics}
 * (Dropwizard's {@code jvm.*} gauges) and {@code /proc/<pid>/fd}; the tool itself from its MXBeans.
 *
 * <p>Thread-safety: the scenario's thread creates and closes it and reads the results after {@link #close()};
 * the watch's own daemon thread takes the samples, into a list guarded by the watch's lock. A reading that
 * fails (the service already stopped) is skipped.
 */
public final class JvmWatch implements AutoCloseable {

    /** The gauges every service watch reads. */
    public static final String HEAP_USED = "jvm.memory.heap.used";
    /** Live threads, from the service's metrics. */
    public static final String THREADS = "jvm.threads.count";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where one reading comes from. */
    private interface Reader {
        Optional<JvmSample> read(double atSeconds) throws InterruptedException;
    }

    private final String name;
    private final Optional<Path> gcLog;
    private final Optional<Long> pid;
    private final List<JvmSample> samples = new ArrayList<>();
    private final ScheduledExecutorService ticker;
    private final AutoCloseable resources;
    private Instant closedAt;

    private JvmWatch(String name, Optional<Path> gcLog, Optional<Long> pid, long originNanos, Reader reader, AutoCloseable resources) {
        this.name = name;
        this.gcLog = gcLog;
        this.pid = pid;
        this.resources = resources;
        this.ticker = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "jvm-watch-" + name);
            thread.setDaemon(true);
            return thread;
        });
        ticker.scheduleAtFixedRate(() -> {
            try {
                reader.read(LatencySummary.round((System.nanoTime() - originNanos) / 1e9)).ifPresent(this::add);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // One missed reading: the next second tries again.
            }
        }, 0, 1, TimeUnit.SECONDS);
    }

    /** Watches this tool's own JVM (MXBeans, /proc/self/fd); its GC log is {@code gcLog} when one is written. */
    public static JvmWatch tool(Optional<Path> gcLog, long originNanos) {
        long self = ProcessHandle.current().pid();
        Reader reader = at -> Optional.of(new JvmSample(at,
                ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (double) (1 << 20),
                ManagementFactory.getThreadMXBean().getThreadCount(), openFiles(Optional.of(self)), Map.of()));
        return new JvmWatch("tool", gcLog, Optional.of(self), originNanos, reader, () -> { });
    }

    /**
     * Watches the service through its admin connector's /metrics (nothing is sampled without one) and its
     * process's open files; {@code gauges} are further metric names to read (gauges or counters, by value or count).
     */
    public static JvmWatch service(String name, Target target, long originNanos, List<String> gauges) {
        Optional<Long> pid = target.serverCpu().process().map(ProcessHandle::pid);
        Optional<URI> metrics = target.adminUri().map(admin -> admin.resolve("/metrics"));
        SimpleHttp http = SimpleHttp.http1();
        Reader reader = at -> {
            if (metrics.isEmpty()) {
                return Optional.empty();
            }
            SimpleHttp.Answer answer = http.get(metrics.get(), Duration.ofSeconds(2));
            if (answer.status() != 200) {
                return Optional.empty();
            }
            return Optional.of(fromMetrics(at, answer.body(), openFiles(pid), gauges));
        };
        return new JvmWatch(name, target.gcLog(), pid, originNanos, reader, http);
    }

    /** A sample from the JSON of Dropwizard's admin /metrics. */
    static JvmSample fromMetrics(double atSeconds, String json, double openFiles, List<String> gauges) {
        try {
            JsonNode root = JSON.readTree(json);
            Map<String, Double> values = new LinkedHashMap<>();
            for (String gauge : gauges) {
                values.put(gauge, metric(root, gauge));
            }
            return new JvmSample(atSeconds, metric(root, HEAP_USED) / (1 << 20), metric(root, THREADS), openFiles, values);
        } catch (IOException e) {
            throw new IllegalArgumentException("not the JSON of /metrics: " + e.getMessage(), e);
        }
    }

    /** A metric's value (gauges) or count (counters, meters, timers) in the JSON of /metrics; NaN when absent. */
    public static double metric(JsonNode root, String name) {
        for (String section : List.of("gauges", "counters", "meters", "timers", "histograms")) {
            JsonNode node = root.path(section).path(name);
            if (node.has("value") && node.get("value").isNumber()) {
                return node.get("value").asDouble();
            }
            if (node.has("count")) {
                return node.get("count").asDouble();
            }
        }
        return Double.NaN;
    }

    private static double openFiles(Optional<Long> pid) {
        if (pid.isEmpty()) {
            return Double.NaN;
        }
        try (Stream<Path> descriptors = Files.list(Path.of("/proc", Long.toString(pid.get()), "fd"))) {
            return descriptors.count();
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    private synchronized void add(JvmSample sample) {
        samples.add(sample);
    }

    /** Stops sampling (waits for a reading in progress). */
    @Override
    public void close() throws InterruptedException {
        ticker.shutdownNow();
        ticker.awaitTermination(5, TimeUnit.SECONDS);
        try {
            resources.close();
        } catch (Exception e) {
            // Nothing more to release.
        }
        synchronized (this) {
            if (closedAt == null) {
                closedAt = Instant.now();
            }
        }
    }

    /** The JVM's name in the report: "tool", or the service's. */
    public String name() {
        return name;
    }

    /** The JVM's process id, when known. */
    public Optional<Long> pid() {
        return pid;
    }

    /** The GC log file, when the JVM writes one. */
    public Optional<Path> gcLog() {
        return gcLog;
    }

    /** The samples taken so far, in order. */
    public synchronized List<JvmSample> samples() {
        return List.copyOf(samples);
    }

    /** The pauses of the whole watch (read from the GC log; none without one). */
    public GcPauses pauses() throws IOException {
        Instant end;
        synchronized (this) {
            end = closedAt != null ? closedAt : Instant.now();
        }
        return GcLog.pauses(gcEvents(), Instant.EPOCH, end.plusSeconds(1));
    }

    /** Every GC event in the log. */
    public List<GcLog.Event> gcEvents() throws IOException {
        return gcLog.isPresent() ? GcLog.read(gcLog.get()) : List.of();
    }
}
