package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.CrossCheck;
import com.example.threading.load.engine.GcPauses;
import com.example.threading.load.engine.GeneratedLoad;
import com.example.threading.load.engine.Outcome;
import com.example.threading.load.engine.PhaseResult;
import com.example.threading.load.engine.Progress;
import com.example.threading.load.engine.Protocol;
import com.example.threading.load.engine.Schedule;
import com.example.threading.load.engine.SimpleHttp;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.target.CpuClock;
import com.example.threading.load.target.MachineCpu;
import com.example.threading.load.target.Target;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.mortbay.jetty.load.generator.Resource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Jetty's performance-test method: loaders offer a fixed rate that keeps the server busy but not
 * saturated ("load, don't strangle"), and a probe at a low fixed rate records the latency a user would
 * see; warm-up first, then recording; over HTTP/1.1 and h2c. Measures into {@link ProtocolRun} and
 * {@link SearchStep} records; {@link ProbeView} presents them.
 */
@Command(name = "probe",
        description = "Fixed-rate loaders plus a low-rate latency probe, warm-up then recording, over HTTP/1.1 and h2c.")
public final class ProbeScenario extends ScenarioCommand {

    private static final String H2C_OVERRIDE = "-Ddw.server.applicationConnectors[0].type=h2c";

    @Option(names = "--path", defaultValue = "/work/blocking?ms=0", description = "What loaders and probe request (default: ${DEFAULT-VALUE})")
    String path;

    @Option(names = "--rate", defaultValue = "1000", description = "Total loader rate in requests/s (default: ${DEFAULT-VALUE})")
    int rate;

    @Option(names = "--loaders", defaultValue = "2", description = "Loaders sharing that rate, each its own client (default: ${DEFAULT-VALUE})")
    int loaders;

    @Option(names = "--probe-rate", defaultValue = "100", description = "Probe rate in requests/s (default: ${DEFAULT-VALUE})")
    int probeRate;

    @Option(names = "--warmup", defaultValue = "60s", description = "Warm-up, not recorded (default: ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--record", defaultValue = "180s", description = "Recording (default: ${DEFAULT-VALUE})")
    Duration record;

    @Option(names = "--protocols", split = ",", defaultValue = "HTTP1,H2C", description = "HTTP1 and/or H2C (default: ${DEFAULT-VALUE})")
    List<Protocol> protocols;

    @Option(names = "--find-rate", description = "After the warm-up, search the loader rate that keeps the server near --target-cpu")
    boolean findRate;

    @Option(names = "--target-cpu", defaultValue = "50", description = "Server CPU to aim for with --find-rate, %% of all cores (default: ${DEFAULT-VALUE})")
    double targetCpu;

    @Option(names = "--search-step", defaultValue = "5s", description = "Length of each rate-search step (default: ${DEFAULT-VALUE})")
    Duration searchStep;

    @Option(names = "--search-steps", defaultValue = "6", description = "Most rate-search steps (default: ${DEFAULT-VALUE})")
    int searchSteps;

    @Option(names = "--cross-check", description = "Run h2load (nghttp2-client) beside the probe during the recording, at the probe's "
            + "rate and path, and put its percentiles beside the probe's (needs h2load on PATH)")
    boolean crossCheck;

    @Option(names = "--probe-process", description = "Run the probe in a JVM of its own (no shared heap, GC or client threads with the loaders)")
    boolean probeProcess;

    @Option(names = "--probe-jvm-options", split = " ", defaultValue = "-Xms64m -Xmx64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1",
            description = "JVM options of the --probe-process JVM, space-separated (default: ${DEFAULT-VALUE})")
    List<String> probeJvmOptions;

    @Option(names = "--connections", defaultValue = "1024", description = "Most connections each loader (and the probe) opens; "
            + "beyond it requests wait in the client's queue (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--idle-timeout", defaultValue = "30s", description = "Client idle timeout per request (default: ${DEFAULT-VALUE})")
    Duration idleTimeout;


    /** A run with this scenario's defaults, filled in by picocli. */
    public ProbeScenario() {
        super(Duration.ofSeconds(1200));
    }

    @Override
    protected void run(Report report) throws Exception {
        report.configure("path", path).configure("loader rate", rate).configure("loaders", loaders).configure("probe rate", probeRate)
                .configure("warm-up", warmup).configure("record", record).configure("protocols", protocols)
                .configure("find rate", findRate).configure("target CPU %", targetCpu).configure("client idle timeout", idleTimeout)
                .configure("probe process", probeProcess ? "own JVM: " + String.join(" ", probeJvmOptions) : "in the tool's JVM")
                .configure("cross-check", crossCheck).configure("connections per client", connections);
        report.summary("Loaders offer a fixed total rate (open model) to `" + path + "` while a probe sends " + probeRate
                + " req/s and records latency from each request's intended send time (corrected for coordinated omission). "
                + "The probe's percentiles are the answer; the loaders only keep the server busy. Warm-up " + Durations.format(warmup)
                + ", then recording " + Durations.format(record) + ", per protocol, each on a fresh service. On this machine the tool and the "
                + "service share the same " + CpuClock.cores() + " cores: the tool's own CPU is reported next to the server's.");
        Optional<Path> h2load = crossCheck ? CrossCheck.h2load() : Optional.empty();
        if (crossCheck && h2load.isEmpty()) {
            report.note("--cross-check: h2load is not on PATH, so there is no cross-check (Debian/Ubuntu: apt-get install nghttp2-client).");
        }
        List<ProtocolRun> runs = new ArrayList<>();
        for (Protocol protocol : protocols) {
            if (deadline().isUp()) {
                report.note("Time limit reached: " + protocol.label() + " skipped.");
                continue;
            }
            try (Target service = openFor(protocol, report)) {
                if (service == null) {
                    continue;
                }
                // Warm up first: a fresh service spends its first minute compiling its hot paths, and CPU
                // measured then says little about the rate it sustains.
                Phase warm = phase(service, protocol, "warmup", warmup, rate, report);
                ProbeView.warmup(report, protocol, warmup, warm.results().get(0));
                int loaderRate = findRate ? searchRate(service, protocol, report) : rate;
                profileFromHere(service, "record", report);
                Phase recorded;
                Optional<CrossCheck.Result> checked = Optional.empty();
                Instant recordFrom = Instant.now();
                MachineCpu machine = new MachineCpu();
                try (CrossCheck independent = h2load.isEmpty() ? null : CrossCheck.start(h2load.get(),
                        service.applicationUri().resolve(path), protocol, probeRate, record, report.directory(),
                        "h2load-" + protocol.name().toLowerCase(java.util.Locale.ROOT) + "-record")) {
                    recorded = phase(service, protocol, "record", record, loaderRate, report);
                    if (independent != null) {
                        checked = Optional.of(independent.await(deadline().within(idleTimeout.plusSeconds(10))));
                    }
                }
                Instant recordTo = Instant.now();
                TailSources tail = new TailSources(toolPauses(recordFrom, recordTo), servicePauses(service, recordFrom, recordTo),
                        recorded.probeStages(), recorded.probeProcessPauses(), machine.percentSinceLast());
                Map<String, Histogram> histograms = new LinkedHashMap<>(recorded.histograms());
                checked.ifPresent(result -> histograms.put("h2load-" + protocol.name().toLowerCase(java.util.Locale.ROOT), result.histogram()));
                ProtocolRun run = new ProtocolRun(protocol, loaderRate, recorded.results(), histograms, checked, tail);
                ProbeView.recorded(report, run, record);
                runs.add(run);
            }
        }
        ProbeView.present(report, path, runs);
    }

    /** What one warm-up or recording measured: the probe's result first, then the loaders'; the probe's stages. */
    private record Phase(List<PhaseResult> results, Map<String, Histogram> histograms, Map<String, Histogram> probeStages,
                         Optional<GcPauses> probeProcessPauses) {
    }

    /** Warm-up or recording: the probe (here, or in its own JVM with --probe-process) and the loaders side by side. */
    private Phase phase(Target service, Protocol protocol, String stage, Duration length, int loaderRate, Report report)
            throws InterruptedException, IOException {
        List<GeneratedLoad> loads = new ArrayList<>();
        String suffix = protocol.name().toLowerCase(java.util.Locale.ROOT) + "-" + stage;
        String probeName = "probe-" + suffix;
        int perLoader = Math.max(1, loaderRate / loaders);
        for (int i = 1; i <= loaders; i++) {
            loads.add(load(service, "loader" + i + "-" + suffix, protocol, perLoader, length, report));
        }
        long expected = (probeRate + (long) perLoader * loaders) * length.toSeconds();
        long deadline = deadline().within(length.plus(idleTimeout).plusSeconds(10));
        if (!probeProcess) {
            loads.add(0, load(service, probeName, protocol, probeRate, length, report));
            try (Progress progress = progress(protocol.label() + " " + stage, expected)) {
                GeneratedLoad.runTogether(loads, deadline, progress);
            }
            Map<String, Histogram> histograms = new LinkedHashMap<>();
            loads.forEach(load -> histograms.put(load.result().name(), load.histogram()));
            return new Phase(loads.stream().map(GeneratedLoad::result).toList(), histograms, loads.get(0).stages(), Optional.empty());
        }
        ProbeProcess.Measured probe;
        try (ProbeProcess child = ProbeProcess.start(probeJvmOptions, service.applicationUri(), protocol, path, probeRate, length,
                idleTimeout, connections, report.directory(), probeName)) {
            child.awaitReady(Duration.ofSeconds(30));
            try (Progress progress = progress(protocol.label() + " " + stage, expected)) {
                GeneratedLoad.runTogether(loads, deadline, progress);
            }
            probe = child.finish(deadline().within(idleTimeout.plusSeconds(15)));
        }
        List<PhaseResult> results = new ArrayList<>();
        results.add(probe.result());
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        histograms.put(probeName, probe.histogram());
        for (GeneratedLoad load : loads) {
            results.add(load.result());
            histograms.put(load.result().name(), load.histogram());
        }
        return new Phase(results, histograms, probe.stages(), Optional.of(probe.pauses()));
    }

    private GeneratedLoad load(Target service, String name, Protocol protocol, int ratePerSecond, Duration length, Report report) {
        GeneratedLoad.Spec spec = new GeneratedLoad.Spec(name, protocol, new Resource(path), path, ratePerSecond, 0, length, 1, idleTimeout,
                connections);
        return new GeneratedLoad(service, spec, Schedule.fixedRate(ratePerSecond), report.directory());
    }

    /** Proportional search: run the loaders alone for a short step, scale the rate by target/measured CPU, repeat. */
    private int searchRate(Target service, Protocol protocol, Report report) throws InterruptedException {
        if (!service.serverCpu().measured()) {
            report.note("--find-rate needs the server's CPU (start the service with the tool, or give --server-pid): using --rate " + rate + ".");
            return rate;
        }
        int current = rate;
        List<SearchStep> steps = new ArrayList<>();
        for (int step = 1; step <= searchSteps && !deadline().isUp(); step++) {
            GeneratedLoad load = load(service, "search-" + protocol.name().toLowerCase(java.util.Locale.ROOT) + "-" + step, protocol,
                    current, searchStep, report);
            PhaseResult result;
            try (Progress progress = progress(protocol.label() + " rate search " + current + "/s", current * searchStep.toSeconds())) {
                result = GeneratedLoad.runTogether(List.of(load), deadline().within(searchStep.plus(idleTimeout)), progress).get(0);
            }
            double cpu = result.serverCpuPercent();
            steps.add(new SearchStep(step, current, result.okPerSecond(), cpu));
            if (Math.abs(cpu - targetCpu) <= 5 || Double.isNaN(cpu)) {
                break;
            }
            if (cpu < targetCpu && (result.count(Outcome.OK) < 0.8 * result.sent() || result.okPerSecond() < 0.7 * current)) {
                // Not keeping up below the target CPU: the limit is elsewhere (a pool, the protocol, or CPU the
                // machine's other processes took). Raising the rate would only strangle it: back off instead.
                int backedOff = Math.max(1, (int) Math.round(result.okPerSecond() * 0.7));
                report.note(protocol.label() + " rate search: at " + current + "/s the service answered only "
                        + Report.num(result.okPerSecond()) + " 2xx/s at " + Report.num(cpu) + " % server CPU; it cannot reach the "
                        + "target CPU here, so the loaders run at " + backedOff + "/s.");
                current = backedOff;
                break;
            }
            double factor = cpu <= 0 ? 2.0 : Math.max(0.5, Math.min(2.0, targetCpu / cpu));
            current = Math.max(1, (int) Math.round(current * factor));
        }
        ProbeView.rateSearch(report, protocol, targetCpu, steps);
        return current;
    }

    /** A fresh service that speaks the protocol, or null (with a note) when it cannot. */
    private Target openFor(Protocol protocol, Report report) throws Exception {
        Target service = open(report, Map.of(), List.of());
        if (protocol == Protocol.HTTP1 || speaksH2c(service)) {
            return service;
        }
        service.close();
        if (target().runningService().isPresent()) {
            report.note("h2c skipped: the service at " + target().runningService().get() + " does not speak HTTP/2 clear text.");
            return null;
        }
        Target h2c = open(report, Map.of(), List.of(H2C_OVERRIDE));
        if (speaksH2c(h2c)) {
            report.note("The service's config.yml connector does not speak h2c: for h2c it was started with " + H2C_OVERRIDE + ".");
            return h2c;
        }
        h2c.close();
        report.note("h2c skipped: the service did not answer HTTP/2 clear text even with " + H2C_OVERRIDE + ".");
        return null;
    }

    private boolean speaksH2c(Target service) throws InterruptedException {
        try (SimpleHttp http = SimpleHttp.h2c()) {
            return http.get(service.applicationUri().resolve(path), Duration.ofSeconds(5)).status() > 0;
        }
    }
}
