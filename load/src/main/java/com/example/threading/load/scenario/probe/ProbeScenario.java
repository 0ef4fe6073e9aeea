package com.example.threading.load.scenario.probe;

import com.example.threading.load.engine.http.CrossCheck;
import com.example.threading.load.engine.http.GeneratedLoad;
import com.example.threading.load.engine.http.H2load;
import com.example.threading.load.engine.http.H2loadLoad;
import com.example.threading.load.engine.http.Load;
import com.example.threading.load.engine.http.Protocol;
import com.example.threading.load.engine.http.Schedule;
import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.recording.LatencySummary;
import com.example.threading.load.engine.recording.Outcome;
import com.example.threading.load.engine.recording.PhaseResult;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import com.example.threading.load.scenario.ScenarioCommand;
import com.example.threading.load.service.CpuClock;
import com.example.threading.load.service.MachineCpu;
import com.example.threading.load.service.Target;
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
 * see; warm-up first, then recording; over HTTP/1.1 and h2c. On one machine the loaders must cost as little as
 * possible and the probe must not share their pauses: the loaders are h2load processes (C, a few % of a core)
 * where h2load is installed, and the probe runs alone in a small JVM tuned for short pauses ({@link ProbeProcess},
 * {@link ProbeJvm}). Measures into {@link ProtocolRun} and {@link SearchStep} records; {@link ProbeView} presents
 * them.
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

    @Option(names = "--loader-engine", defaultValue = "H2LOAD", description = "What sends the loaders' traffic: H2LOAD (one h2load "
            + "process per loader; the Java engine where h2load is not on PATH) or JAVA (Jetty's load generator in the tool's JVM) "
            + "(default: ${DEFAULT-VALUE})")
    LoaderEngine loaderEngine;

    @Option(names = "--probe-process", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Run the probe in a JVM of its own, one per service (no shared heap, GC or client threads with the tool); "
                    + "--no-probe-process runs it in the tool's JVM (default: ${DEFAULT-VALUE})")
    boolean probeProcess;

    @Option(names = "--probe-java", description = "The java executable or JDK folder of the probe's JVM (default: the one running this tool)")
    Path probeJava;

    @Option(names = "--probe-nice", defaultValue = "-10", description = "Scheduling priority of the probe's JVM (nice; negative needs "
            + "root, else it runs at the default): its threads get a core as soon as they wake, as on a machine of its own; 0 leaves "
            + "it as the rest (default: ${DEFAULT-VALUE})")
    int probeNice;

    @Option(names = "--probe-jvm-options", split = " ", description = "JVM options of the probe's JVM, space-separated (default: a 64 MB "
            + "heap, C1 only, and generational ZGC on JDK 21+, single-generation ZGC before)")
    List<String> probeJvmOptions = new ArrayList<>();

    @Option(names = "--connections", defaultValue = "1024", description = "Most connections each loader (and the probe) opens; "
            + "beyond it requests wait in the client's queue (default: ${DEFAULT-VALUE})")
    int connections;

    @Option(names = "--loader-connection-rate", defaultValue = "100", description = "Requests/s each h2load loader connection carries: "
            + "a loader opens its rate ÷ this connections (at most --connections); one request at a time each, so it keeps up while "
            + "answers take under 1/this s (default: ${DEFAULT-VALUE})")
    int loaderConnectionRate;

    @Option(names = "--idle-timeout", defaultValue = "30s", description = "Client idle timeout per request (default: ${DEFAULT-VALUE})")
    Duration idleTimeout;

    private Optional<Path> h2loadLoaders = Optional.empty();

    /** A run with this scenario's defaults, filled in by picocli. */
    public ProbeScenario() {
        super(Duration.ofSeconds(1200));
    }

    @Override
    protected void run(Report report) throws Exception {
        h2loadLoaders = loaderEngine == LoaderEngine.H2LOAD ? H2load.onPath() : Optional.empty();
        ProbeJvm jvm = probeProcess ? ProbeJvm.choose(probeJava == null ? Path.of(System.getProperty("java.home")) : probeJava,
                probeJvmOptions, probeNice) : null;
        report.configure("path", path).configure("loader rate", rate).configure("loaders", loaders).configure("probe rate", probeRate)
                .configure("warm-up", warmup).configure("record", record).configure("protocols", protocols)
                .configure("find rate", findRate).configure("target CPU %", targetCpu).configure("client idle timeout", idleTimeout)
                .configure("loader engine", h2loadLoaders.map(h2load -> H2load.version(h2load) + ", one process per loader")
                        .orElse("Java (Jetty's load generator in the tool's JVM)"))
                .configure("probe process", jvm == null ? "in the tool's JVM" : "own JVM: " + jvm.java() + " (JDK " + jvm.version() + ") "
                        + String.join(" ", jvm.options()) + " — " + jvm.collector() + (jvm.nice() == 0 ? "" : ", nice " + jvm.nice()))
                .configure("cross-check", crossCheck).configure("connections per client", connections)
                .configure("h2load req/s per loader connection", loaderConnectionRate);
        report.summary("Loaders offer a fixed total rate (open model) to `" + path + "` while a probe sends " + probeRate
                + " req/s and records latency from each request's intended send time (corrected for coordinated omission). "
                + "The probe's percentiles are the answer; the loaders only keep the server busy, and their own percentiles beside the "
                + "probe's show how much of the probe's tail is the server's. Warm-up " + Durations.format(warmup)
                + ", then recording " + Durations.format(record) + ", per protocol, each on a fresh service. On this machine the loaders, "
                + "the probe and the service share the same " + CpuClock.cores() + " cores: their CPU is reported next to the server's.");
        if (loaderEngine == LoaderEngine.H2LOAD && h2loadLoaders.isEmpty()) {
            report.note("--loader-engine H2LOAD: h2load is not on PATH, so the loaders ran on the Java engine in the tool's JVM ("
                    + H2load.INSTALL + " for h2load).");
        }
        Optional<Path> h2load = crossCheck ? H2load.onPath() : Optional.empty();
        if (crossCheck && h2load.isEmpty()) {
            report.note("--cross-check: h2load is not on PATH, so there is no cross-check (Debian/Ubuntu: " + H2load.INSTALL + ").");
        }
        List<ProtocolRun> runs = new ArrayList<>();
        Map<String, ProbeProcess.Facts> probeJvms = new LinkedHashMap<>();
        for (Protocol protocol : protocols) {
            if (deadline().isUp()) {
                report.note("Time limit reached: " + protocol.label() + " skipped.");
                continue;
            }
            try (Target service = openFor(protocol, report)) {
                if (service == null) {
                    continue;
                }
                try (ProbeProcess probe = jvm == null ? null : startProbe(jvm, service, protocol, report)) {
                    if (probe != null) {
                        ProbeProcess.Facts facts = probe.awaitReady(Duration.ofSeconds(60));
                        probeJvms.put(protocol.label(), facts);
                        ProbeView.probeJvm(report, protocol, jvm, facts);
                    }
                    runs.add(measure(service, probe, protocol, h2load, report));
                }
            }
        }
        report.data("probeJvms", probeJvms);
        ProbeView.present(report, path, runs);
    }

    private ProbeProcess startProbe(ProbeJvm jvm, Target service, Protocol protocol, Report report) throws IOException {
        return ProbeProcess.start(jvm, service.applicationUri(), protocol, path, probeRate, idleTimeout, connections, report.directory(),
                "probe-" + protocol.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** One protocol on its service: warm-up, the rate search if asked, then the recording with the cross-check beside it. */
    private ProtocolRun measure(Target service, ProbeProcess probe, Protocol protocol, Optional<Path> h2load, Report report) throws Exception {
        // Warm up first: a fresh service spends its first minute compiling its hot paths, and CPU
        // measured then says little about the rate it sustains.
        Phase warm = phase(service, probe, protocol, "warmup", warmup, rate, report);
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
            recorded = phase(service, probe, protocol, "record", record, loaderRate, report);
            if (independent != null) {
                checked = Optional.of(independent.await(deadline().within(idleTimeout.plusSeconds(10))));
            }
        }
        Instant recordTo = Instant.now();
        TailSources tail = new TailSources(toolPauses(recordFrom, recordTo), servicePauses(service, recordFrom, recordTo),
                recorded.probeStages(), recorded.probeProcessPauses(), machine.percentSinceLast());
        Map<String, Histogram> histograms = new LinkedHashMap<>(recorded.histograms());
        checked.ifPresent(result -> histograms.put("h2load-" + protocol.name().toLowerCase(java.util.Locale.ROOT), result.histogram()));
        Histogram loadersLatency = new Histogram(3);
        recorded.results().subList(1, recorded.results().size()).forEach(loader -> loadersLatency.add(recorded.histograms().get(loader.name())));
        LoaderRun loaderRun = new LoaderRun(h2loadLoaders.isPresent() ? LoaderEngine.H2LOAD : LoaderEngine.JAVA, engineLabel(loaderRate), loaderRate, recorded.loadersCpuPercent(), loadersLatency);
        ProtocolRun run = new ProtocolRun(protocol, recorded.results(), histograms, loaderRun, checked, tail);
        ProbeView.recorded(report, run, record);
        return run;
    }

    private String engineLabel(int loaderRate) {
        if (h2loadLoaders.isEmpty()) {
            return loaders + " × Java (tool's JVM)";
        }
        int perLoader = Math.max(1, loaderRate / loaders);
        return loaders + " × h2load, " + H2load.connectionsFor(perLoader, loaderConnectionRate, connections) + " connections each";
    }

    /**
     * What one warm-up or recording measured: the probe's result first, then the loaders'; the probe's stages, its
     * JVM's GC pauses when it has its own, and the loaders' CPU (% of all cores).
     */
    private record Phase(List<PhaseResult> results, Map<String, Histogram> histograms, Map<String, Histogram> probeStages,
                         Optional<GcPauses> probeProcessPauses, double loadersCpuPercent) {
    }

    /** Warm-up or recording: the probe (in its own JVM, or here with --no-probe-process) and the loaders side by side. */
    private Phase phase(Target service, ProbeProcess probe, Protocol protocol, String stage, Duration length, int loaderRate, Report report)
            throws InterruptedException, IOException {
        String suffix = protocol.name().toLowerCase(java.util.Locale.ROOT) + "-" + stage;
        String probeName = "probe-" + suffix;
        List<Load> loads = loaders(service, protocol, suffix, loaderRate, length, report);
        long expected = (probeRate + (long) loaderRate) * length.toSeconds();
        long deadline = deadline().within(length.plus(idleTimeout).plusSeconds(10));
        List<PhaseResult> results = new ArrayList<>();
        Map<String, Histogram> histograms = new LinkedHashMap<>();
        Map<String, Histogram> stages;
        Optional<GcPauses> probePauses = Optional.empty();
        if (probe == null) {
            GeneratedLoad inTool = load(service, probeName, protocol, probeRate, length, report);
            List<Load> all = new ArrayList<>(loads);
            all.add(0, inTool);
            try (Progress progress = progress(protocol.label() + " " + stage, expected)) {
                results.addAll(Load.runTogether(all, deadline, progress));
            }
            stages = inTool.stages();
            histograms.put(probeName, inTool.histogram());
        } else {
            probe.begin(probeName, length, Duration.ofSeconds(30));
            List<PhaseResult> loaderResults;
            try (Progress progress = progress(protocol.label() + " " + stage, expected)) {
                loaderResults = Load.runTogether(loads, deadline, progress);
            }
            ProbeProcess.Measured measured = probe.finish(probeName, deadline().within(idleTimeout.plusSeconds(15)));
            stages = measured.stages();
            probePauses = Optional.of(measured.pauses());
            results.add(measured.result());
            results.addAll(loaderResults);
            histograms.put(probeName, measured.histogram());
        }
        for (Load load : loads) {
            histograms.put(load.recorder().name(), load.histogram());
        }
        return new Phase(results, histograms, stages, probePauses, loadersCpu(loads, results));
    }

    /** The h2load loaders' CPU added up, or the tool's where the Java loaders ran in it. */
    private static double loadersCpu(List<Load> loads, List<PhaseResult> results) {
        if (loads.stream().allMatch(H2loadLoad.class::isInstance)) {
            return LatencySummary.round(loads.stream().mapToDouble(load -> ((H2loadLoad) load).cpuPercent()).sum());
        }
        return results.get(results.size() - 1).toolCpuPercent();
    }

    /** The loaders of one phase, sharing {@code total} req/s: h2load processes, or Java clients in this JVM. */
    private List<Load> loaders(Target service, Protocol protocol, String suffix, int total, Duration length, Report report) {
        int perLoader = Math.max(1, total / loaders);
        List<Load> loads = new ArrayList<>();
        for (int i = 1; i <= loaders; i++) {
            String name = "loader" + i + "-" + suffix;
            if (h2loadLoaders.isPresent()) {
                loads.add(new H2loadLoad(h2loadLoaders.get(), service, H2loadLoad.Spec.atRate(name, protocol, service.applicationUri().resolve(path),
                        path, perLoader, loaderConnectionRate, connections, length), report.directory()));
            } else {
                loads.add(load(service, name, protocol, perLoader, length, report));
            }
        }
        return loads;
    }

    private GeneratedLoad load(Target service, String name, Protocol protocol, int ratePerSecond, Duration length, Report report) {
        GeneratedLoad.Spec spec = new GeneratedLoad.Spec(name, protocol, new Resource(path), path, ratePerSecond, 0, length, 1, idleTimeout,
                connections);
        return new GeneratedLoad(service, spec, Schedule.fixedRate(ratePerSecond), report.directory());
    }

    /**
     * Proportional search: run the loaders alone for a short step, scale the rate by target/measured CPU, repeat. When
     * no step comes within 5 points of the target, the loaders run at the measured step closest to it, not at an
     * extrapolated rate nobody measured.
     */
    private int searchRate(Target service, Protocol protocol, Report report) throws InterruptedException {
        if (!service.serverCpu().measured()) {
            report.note("--find-rate needs the server's CPU (start the service with the tool, or give --server-pid): using --rate " + rate + ".");
            return rate;
        }
        int current = rate;
        List<SearchStep> steps = new ArrayList<>();
        for (int step = 1; step <= searchSteps && !deadline().isUp(); step++) {
            List<Load> loads = loaders(service, protocol, protocol.name().toLowerCase(java.util.Locale.ROOT) + "-search" + step, current,
                    searchStep, report);
            List<PhaseResult> results;
            try (Progress progress = progress(protocol.label() + " rate search " + current + "/s", current * searchStep.toSeconds())) {
                results = Load.runTogether(loads, deadline().within(searchStep.plus(idleTimeout)), progress);
            }
            PhaseResult result = results.get(0);
            long ok = results.stream().mapToLong(phase -> phase.count(Outcome.OK)).sum();
            long sent = results.stream().mapToLong(PhaseResult::sent).sum();
            double okPerSecond = results.stream().mapToDouble(PhaseResult::okPerSecond).sum();
            double cpu = result.serverCpuPercent();
            steps.add(new SearchStep(step, current, okPerSecond, cpu));
            if (Math.abs(cpu - targetCpu) <= 5 || Double.isNaN(cpu)) {
                ProbeView.rateSearch(report, protocol, targetCpu, steps);
                return current;
            }
            if (cpu < targetCpu && (ok < 0.8 * sent || okPerSecond < 0.7 * current)) {
                // Not keeping up below the target CPU: the limit is elsewhere (a pool, the protocol, or CPU the
                // machine's other processes took). Raising the rate would only strangle it: back off instead.
                int backedOff = Math.max(1, (int) Math.round(okPerSecond * 0.7));
                report.note(protocol.label() + " rate search: at " + current + "/s the service answered only "
                        + Report.num(okPerSecond) + " 2xx/s at " + Report.num(cpu) + " % server CPU; it cannot reach the "
                        + "target CPU here, so the loaders run at " + backedOff + "/s.");
                ProbeView.rateSearch(report, protocol, targetCpu, steps);
                return backedOff;
            }
            double factor = cpu <= 0 ? 2.0 : Math.max(0.5, Math.min(2.0, targetCpu / cpu));
            current = Math.max(1, (int) Math.round(current * factor));
        }
        ProbeView.rateSearch(report, protocol, targetCpu, steps);
        SearchStep closest = steps.stream().min(java.util.Comparator.comparingDouble(step -> Math.abs(step.serverCpuPercent() - targetCpu)))
                .orElse(new SearchStep(0, rate, Double.NaN, Double.NaN));
        report.note(protocol.label() + " rate search: no step came within 5 points of " + Report.num(targetCpu) + " % server CPU; the "
                + "loaders run at the measured step closest to it, " + closest.ratePerSecond() + "/s (" + Report.num(closest.serverCpuPercent())
                + " %).");
        return closest.ratePerSecond();
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
