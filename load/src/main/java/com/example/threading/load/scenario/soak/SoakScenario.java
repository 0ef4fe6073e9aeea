package com.example.threading.load.scenario.soak;

import com.example.threading.load.engine.http.GeneratedLoad;
import com.example.threading.load.engine.http.Load;
import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.http.Schedule;
import com.example.threading.load.engine.jvm.ForcedGc;
import com.example.threading.load.engine.jvm.GcLog;
import com.example.threading.load.engine.jvm.JvmSample;
import com.example.threading.load.engine.jvm.JvmWatch;
import com.example.threading.load.engine.recording.IntervalSample;
import com.example.threading.load.engine.recording.PhaseRecorder;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.engine.traffic.PollingClients;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A steady mixed load for minutes, watching for growth: every /work pattern and /fanout share a fixed total rate
 * (open model, one sender each), long-poll clients keep polling /events and /events/blocking (closed loop), once a
 * minute the service is asked for a full collection ({@link ForcedGc}, the admin task {@code /tasks/gc}) and its
 * live heap read right after, and that live heap, threads, open files and parked/waiting polls are summed up per
 * minute into {@link MinuteSample}s; {@link Growth} says flat or growing; {@link SoakView} presents it.
 *
 * <p>Thread-safety: picocli and {@link #run} use the scenario's thread, which drives the senders and waits; each
 * long-poll endpoint's {@link PollingClients#run} is called once, on its own thread of a two-thread pool, and the
 * scenario's thread reads its recorder only after that call has returned (the future's get orders the two). The
 * forced collections run on {@link ForcedGc}'s own thread; the scenario's thread reads them after closing it.
 */
@Command(name = "soak",
        description = "Minutes of mixed load (/work patterns, /fanout, long polls); per minute the live heap after a forced full GC, "
                + "threads, open files, parked polls; a verdict: flat or growing.")
public final class SoakScenario extends ScenarioCommand {

    /** The service's gauges of parked and waiting long polls, read once a second. */
    static final List<String> POLL_GAUGES = List.of("events.parked", "events.blocking.waiting");

    @Option(names = "--duration", defaultValue = "10m", description = "How long the mix runs (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--rate", defaultValue = "1200", description = "Total rate of the /work and /fanout requests, req/s, shared "
            + "equally (default: ${DEFAULT-VALUE}; 2,000 put the server at about 60 %% CPU on 2 cores, see docs/load.md)")
    int rate;

    @Option(names = "--patterns", split = ",", defaultValue = "blocking,thread-per-request,cached,bounded,virtual",
            description = "/work patterns in the mix (default: ${DEFAULT-VALUE})")
    List<String> patterns;

    @Option(names = "--ms", defaultValue = "5", description = "Simulated wait of each /work request, ms (default: ${DEFAULT-VALUE})")
    int ms;

    @Option(names = "--fanout", defaultValue = "n=4&ms=5&via=managed", description = "Query of the /fanout requests in the mix; "
            + "empty leaves /fanout out (default: ${DEFAULT-VALUE})")
    String fanout;

    @Option(names = "--pollers", defaultValue = "100", description = "Long-poll clients on /events (default: ${DEFAULT-VALUE})")
    int pollers;

    @Option(names = "--blocking-pollers", defaultValue = "20", description = "Long-poll clients on /events/blocking (default: ${DEFAULT-VALUE})")
    int blockingPollers;

    @Option(names = "--poll-timeout", defaultValue = "10", description = "Each poll's timeout parameter, s (default: ${DEFAULT-VALUE})")
    int pollTimeout;

    @Option(names = "--connections", defaultValue = "1024", description = "Most connections each sender opens; beyond it requests "
            + "wait in the client's queue, so open files measure the service, not the client's churn (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--full-gc-every", defaultValue = "1m", description = "How often the service is asked for a full GC (admin "
            + "POST /tasks/gc, a stop-the-world pause the service pays) before its live heap is read; the verdict judges that "
            + "live heap. 0 = never: the verdict then judges the lowest heap a collection left, which under G1 includes old "
            + "garbage waiting for the next marking cycle (default: ${DEFAULT-VALUE})")
    Duration fullGcEvery;

    @Option(names = "--idle-timeout", defaultValue = "30s", description = "Client idle timeout per request (default: ${DEFAULT-VALUE})")
    Duration idleTimeout;

    /** A run with this scenario's defaults, filled in by picocli. */
    public SoakScenario() {
        super(Duration.ofMinutes(20));
    }

    @Override
    protected List<String> serviceGauges() {
        return POLL_GAUGES;
    }

    @Override
    protected void run(Report report) throws Exception {
        List<String> paths = new ArrayList<>();
        patterns.forEach(pattern -> paths.add("/work/" + pattern + "?ms=" + ms));
        if (!fanout.isBlank()) {
            paths.add("/fanout?" + fanout);
        }
        int perPath = Math.max(1, rate / paths.size());
        report.configure("duration", duration).configure("rate", rate).configure("paths", paths).configure("rate per path", perPath)
                .configure("pollers /events", pollers).configure("pollers /events/blocking", blockingPollers)
                .configure("poll timeout s", pollTimeout).configure("client idle timeout", idleTimeout)
                .configure("connections per sender", connections).configure("full GC every", fullGcEvery);
        if (fullGcEvery.isNegative()) {
            throw new IllegalArgumentException("--full-gc-every must be 0 (off) or positive, not " + fullGcEvery);
        }
        report.summary("For " + Durations.format(duration) + ", " + paths.size() + " senders offer " + perPath + " req/s each (open model) to "
                + String.join(", ", paths.stream().map(path -> "`" + path + "`").toList()) + ", while " + pollers + " clients long-poll `/events` and "
                + blockingPollers + " `/events/blocking` (closed loop, next poll on each answer). Once a minute: "
                + (fullGcEvery.isZero() ? "the lowest heap a collection left that minute (no full GC forced: under G1 this includes old garbage "
                + "waiting for the next marking cycle)" : "the live heap — heap used right after a full GC the tool asked for (admin `POST "
                + "/tasks/gc` every " + Durations.format(fullGcEvery) + ")")
                + ", peak threads, open files and parked/waiting polls. A series is growing when its least-squares "
                + "slope (minute 2 on) projects more growth over the run than both its slack and 10 % of its mean.");
        Duration limit = duration.plus(idleTimeout).plusSeconds(20);
        try (Target service = open(report, Map.of(), List.of())) {
            double startSeconds = runSeconds();
            Optional<ForcedGc> forcedGc = Optional.empty();
            if (!fullGcEvery.isZero()) {
                // A few seconds before each period ends, so that with 1m each minute of the soak gets its own reading.
                Duration firstAfter = fullGcEvery.minus(min(Duration.ofSeconds(5), fullGcEvery.dividedBy(2)));
                forcedGc = ForcedGc.every(service, firstAfter, fullGcEvery, this::runSeconds);
                // Stopped at the latest with the service, should the soak fail before it is closed below.
                forcedGc.ifPresent(forcing -> service.beforeClose(forcing::stop));
                if (forcedGc.isEmpty()) {
                    report.note("No full GC forced: the service's admin connector is unknown (give --admin-url with --url); the heap verdict "
                            + "judges the lowest heap a collection left, which includes old garbage waiting for G1's next marking cycle.");
                }
            }
            List<GeneratedLoad> loads = new ArrayList<>();
            for (String path : paths) {
                String name = path.substring(1).replaceAll("[?&=]", "-");
                GeneratedLoad.Spec spec = new GeneratedLoad.Spec(name, Protocol.HTTP1, new Resource(path), path, perPath, 0, duration, 1, idleTimeout,
                        connections);
                loads.add(new GeneratedLoad(service, spec, Schedule.fixedRate(perPath), report.directory()));
            }
            ExecutorService pollingThreads = Executors.newFixedThreadPool(2, runnable -> {
                Thread thread = new Thread(runnable, "soak-pollers");
                thread.setDaemon(true);
                return thread;
            });
            Map<String, PhaseRecorder> pollRecorders = new LinkedHashMap<>();
            List<Future<Boolean>> polling = new ArrayList<>();
            long pollDeadline = deadline().within(duration);
            int iterations = (int) Math.min(Integer.MAX_VALUE, duration.toSeconds() * 10 + 10);
            for (Map.Entry<String, Integer> endpoint : Map.of("/events", pollers, "/events/blocking", blockingPollers).entrySet()) {
                if (endpoint.getValue() <= 0) {
                    continue;
                }
                PhaseRecorder recorder = new PhaseRecorder("poll" + endpoint.getKey(),
                        report.directory().resolve(GeneratedLoad.fileName("poll" + endpoint.getKey()) + ".hlog"), service.serverCpu());
                PollingClients clients = new PollingClients(service.applicationUri().resolve(endpoint.getKey()), endpoint.getValue(),
                        iterations, pollTimeout, false);
                pollRecorders.put(endpoint.getKey(), recorder);
                polling.add(pollingThreads.submit(() -> clients.run(recorder, pollDeadline, Progress.start(false, endpoint.getKey(), 0))));
            }
            List<PhaseResult> results;
            try (Progress progress = progress("soak " + Durations.format(duration), (long) perPath * paths.size() * duration.toSeconds())) {
                results = Load.runTogether(loads, deadline().within(limit), progress);
            }
            for (Future<Boolean> poll : polling) {
                try {
                    poll.get(Math.max(1, TimeUnit.NANOSECONDS.toSeconds(deadline().within(idleTimeout.plusSeconds(pollTimeout + 10)) - System.nanoTime())),
                            TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    poll.cancel(true);
                }
            }
            pollingThreads.shutdownNow();
            List<ForcedGc.Reading> forced = List.of();
            if (forcedGc.isPresent()) {
                forcedGc.get().close();
                forced = forcedGc.get().readings();
            }
            List<PhaseResult> all = new ArrayList<>(results);
            Map<String, Histogram> histograms = new LinkedHashMap<>();
            loads.forEach(load -> histograms.put(load.result().name(), load.histogram()));
            pollRecorders.forEach((endpoint, recorder) -> {
                all.add(recorder.finish("HTTP/1.1", endpoint, 0));
                histograms.put("poll" + endpoint, recorder.histogram());
            });
            JvmWatch watch = watchOf(service).orElseThrow();
            List<GcLog.Event> gcEvents = watch.gcEvents();
            List<MinuteSample> minutes = minutes(watch.samples(), forced, gcEvents, runStartedAt(),
                    results.isEmpty() ? List.of() : results.get(0).intervals(), startSeconds, duration);
            SoakView.present(report, minutes, forcedGc.isPresent() ? Optional.of(new ForcedGcs(fullGcEvery, forced, gcEvents,
                    service.gcLog().isPresent())) : Optional.empty(), all, histograms);
        }
    }

    /**
     * Sums the one-second samples and the forced collections (seconds since {@code runStart}), the GC log and the
     * first sender's CPU readings (seconds since the soak began at {@code startSeconds}) up per minute of the soak:
     * the live heap is the minute's last successful forced reading; the lowest heap after GC leaves the forced
     * (explicit) collections out, so it stays what a collector left on its own.
     */
    static List<MinuteSample> minutes(List<JvmSample> samples, List<ForcedGc.Reading> forced, List<GcLog.Event> gcEvents,
                                      java.time.Instant runStart, List<IntervalSample> cpu, double startSeconds, Duration duration) {
        int count = (int) Math.max(1, (duration.toSeconds() + 59) / 60);
        List<MinuteSample> minutes = new ArrayList<>();
        for (int minute = 0; minute < count; minute++) {
            double from = startSeconds + minute * 60.0;
            double to = from + 60.0;
            List<JvmSample> inMinute = samples.stream().filter(sample -> sample.atSeconds() >= from && sample.atSeconds() < to).toList();
            List<ForcedGc.Reading> forcedInMinute = forced.stream().filter(ForcedGc.Reading::ok)
                    .filter(reading -> reading.atSeconds() >= from && reading.atSeconds() < to).toList();
            ForcedGc.Reading live = forcedInMinute.isEmpty() ? null : forcedInMinute.get(forcedInMinute.size() - 1);
            double heapAfter = gcEvents.stream().filter(event -> event.heapAfterBytes() >= 0 && !event.explicit())
                    .filter(event -> {
                        double at = Duration.between(runStart, event.at()).toMillis() / 1000.0;
                        return at >= from && at < to;
                    })
                    .mapToDouble(event -> event.heapAfterBytes() / (double) (1 << 20)).min().orElse(Double.NaN);
            Map<String, Double> gauges = new LinkedHashMap<>();
            for (String gauge : POLL_GAUGES) {
                gauges.put(gauge, max(inMinute.stream().mapToDouble(sample -> sample.gauges().getOrDefault(gauge, Double.NaN)).toArray()));
            }
            double cpuFrom = minute * 60.0;
            double cpuPercent = cpu.stream().filter(interval -> interval.atSeconds() >= cpuFrom && interval.atSeconds() < cpuFrom + 60.0)
                    .mapToDouble(IntervalSample::serverCpuPercent).filter(Double::isFinite).average().orElse(Double.NaN);
            minutes.add(new MinuteSample(minute + 1, live == null ? Double.NaN : live.heapUsedMb(), live == null ? Double.NaN : live.oldGenMb(),
                    heapAfter, max(inMinute.stream().mapToDouble(JvmSample::heapUsedMb).toArray()),
                    max(inMinute.stream().mapToDouble(JvmSample::threads).toArray()),
                    max(inMinute.stream().mapToDouble(JvmSample::openFiles).toArray()), gauges, cpuPercent));
        }
        return minutes;
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static double max(double[] values) {
        return java.util.Arrays.stream(values).filter(Double::isFinite).max().orElse(Double.NaN);
    }
}
