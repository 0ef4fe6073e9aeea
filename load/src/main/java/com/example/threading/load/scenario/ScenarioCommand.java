package com.example.threading.load.scenario;

import com.example.threading.load.engine.http.SimpleHttp;
import com.example.threading.load.engine.jvm.GcLog;
import com.example.threading.load.engine.jvm.GcPauses;
import com.example.threading.load.engine.jvm.JvmWatch;
import com.example.threading.load.engine.jvm.Profiler;
import com.example.threading.load.engine.jvm.ToolGcLog;
import com.example.threading.load.engine.recording.Progress;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.JvmViews;
import com.example.threading.load.report.Report;
import com.example.threading.load.service.Target;
import com.example.threading.load.service.TargetOptions;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The life of every scenario: it gets the shared {@link ScenarioOptions}, a fresh report folder, a
 * {@link Deadline} and a {@link Watchdog} that ends the JVM (and so the service child) should the scenario
 * overrun its hard limit by a minute; its {@link #run} measures and fills the report, which is then written
 * and its tables printed. Every run also watches its JVMs (see {@link JvmViews}): each service it opens (GC log,
 * heap, threads, open files once a second) and the tool itself (its own GC log through {@link ToolGcLog}, its
 * MXBeans); with {@code --profile}, async-profiler samples each service it started and writes a flame graph.
 *
 * <p>Not thread-safe: picocli fills the options and calls {@link #call()} on one thread, the scenario's thread, and
 * {@link #run} and every protected method must be called on it; only the watchdog and the watches' samplers run
 * elsewhere (see {@link JvmWatch}).
 */
public abstract class ScenarioCommand implements Callable<Integer> {

    @Mixin
    ScenarioOptions options;

    @Spec
    CommandSpec spec;

    private final Duration defaultMaxDuration;
    private Deadline deadline;
    private long originNanos = System.nanoTime();
    private final List<JvmWatch> watches = new ArrayList<>();
    private final Map<Target, Profiler> profilers = new IdentityHashMap<>();
    private final Map<Target, JvmWatch> serviceWatches = new IdentityHashMap<>();
    private JvmWatch toolWatch;
    private Instant originInstant = Instant.now();

    /** A scenario whose {@code --max-duration} defaults to {@code defaultMaxDuration}. */
    protected ScenarioCommand(Duration defaultMaxDuration) {
        this.defaultMaxDuration = defaultMaxDuration;
    }

    /** Runs the experiment: measures, and fills the report through the scenario's views. */
    protected abstract void run(Report report) throws Exception;

    /** Runs the scenario within its hard limit, writes the report and prints its tables; 0 when the report is written. */
    @Override
    public final Integer call() throws Exception {
        String name = spec.name();
        Path directory = options.runFolder(name);
        Files.createDirectories(directory);
        String command = "java -jar load/target/threading-load.jar " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        Report report = new Report(name, directory, command);
        Duration limit = options.maxDuration;
        deadline = Deadline.after(limit);
        Duration hardLimit = limit.plusSeconds(60);
        Watchdog watchdog = Watchdog.start(hardLimit, () -> {
            System.err.println("hard time limit of " + Durations.format(hardLimit) + " exceeded: stopping (the service child is killed)");
            System.exit(3);
        });
        originNanos = System.nanoTime();
        originInstant = Instant.now();
        Optional<ToolGcLog> toolGcLog = ToolGcLog.start(directory.resolve("tool-gc.log"));
        JvmWatch tool = JvmWatch.tool(toolGcLog.map(ToolGcLog::file), originNanos);
        toolWatch = tool;
        try {
            run(report);
        } finally {
            watchdog.close();
            tool.close();
            toolGcLog.ifPresent(ToolGcLog::close);
            for (JvmWatch watch : watches) {
                watch.close();
            }
        }
        if (toolGcLog.isEmpty()) {
            report.note("The tool's own GC log could not be switched on (no VM.log diagnostic command in this JVM): its pauses are not counted.");
        }
        List<JvmWatch> jvms = new ArrayList<>(watches);
        jvms.add(tool);
        JvmViews.present(report, jvms);
        report.configure("max duration", limit);
        Path file = report.write();
        report.tables().forEach(table -> System.out.println("\n" + table.title() + "\n" + table.markdown()));
        report.notes().forEach(note -> System.out.println("note: " + note));
        System.out.println("report: " + file.toAbsolutePath());
        return 0;
    }

    /** The scenario's hard deadline (its --max-duration from the start of the run). */
    protected final Deadline deadline() {
        return deadline;
    }

    /** A progress bar for one step of the scenario (silent with --no-progress). */
    protected final Progress progress(String task, long expected) {
        return Progress.start(!options.noProgress, task, expected);
    }

    /** Where the load goes, as the command line said. */
    protected final TargetOptions target() {
        return options.target;
    }

    /** Opens the target for one part of the scenario (see {@link TargetOptions#open}) and puts what it says into the report. */
    protected final Target open(Report report, Map<String, String> environment, List<String> systemProperties)
            throws IOException, InterruptedException {
        return open(report, environment, systemProperties, options.target.requestLog());
    }

    /** As {@link #open(Report, Map, List)}, its request log as {@code requestLog} says rather than as --request-log does. */
    protected final Target open(Report report, Map<String, String> environment, List<String> systemProperties,
                                TargetOptions.RequestLog requestLog) throws IOException, InterruptedException {
        Target opened = options.target.open(report.directory(), environment, systemProperties, requestLog);
        opened.caveats().forEach(report::note);
        opened.facts().forEach(report::environment);
        JvmWatch watch = JvmWatch.service(opened.name(), opened, originNanos, serviceGauges());
        watches.add(watch);
        serviceWatches.put(opened, watch);
        opened.beforeClose(() -> {
            stopProfiler(opened, report);
            try {
                watch.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (options.profile && profilesEachService()) {
            startProfiler(opened, "", report);
        }
        return opened;
    }

    /**
     * A second service of another jar and config.yml beside the one {@link #open} starts (e.g. the jar before a change),
     * watched the same way; its facts go into the report with {@code label} in front of their names.
     */
    protected final Target openOther(Report report, String label, Path jar, Path config, Map<String, String> environment)
            throws IOException, InterruptedException {
        Target opened = options.target.open(report.directory(), environment, List.of(), options.target.requestLog(), jar, config);
        opened.caveats().forEach(report::note);
        opened.facts().forEach((name, value) -> report.environment(label + " " + name, value));
        JvmWatch watch = JvmWatch.service(label + "-" + opened.name(), opened, originNanos, serviceGauges());
        watches.add(watch);
        serviceWatches.put(opened, watch);
        opened.beforeClose(() -> {
            try {
                watch.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return opened;
    }

    /** The watch on a service this scenario opened (its samples so far, its GC log), if any. */
    protected final Optional<JvmWatch> watchOf(Target service) {
        return Optional.ofNullable(serviceWatches.get(service));
    }

    /** Seconds since the run began, on the clock of every sample's {@code atSeconds}. */
    protected final double runSeconds() {
        return (System.nanoTime() - originNanos) / 1e9;
    }

    /** When the run began: the origin of every sample's {@code atSeconds}. */
    protected final Instant runStartedAt() {
        return originInstant;
    }

    /** The tool's own GC pauses that began between {@code from} and {@code to} (from its GC log; none without one). */
    protected final GcPauses toolPauses(Instant from, Instant to) throws IOException {
        return GcLog.pauses(toolWatch.gcEvents(), from, to);
    }

    /** The GC pauses of a service this scenario opened that began between {@code from} and {@code to} (none without its GC log). */
    protected final GcPauses servicePauses(Target service, Instant from, Instant to) throws IOException {
        JvmWatch watch = serviceWatches.get(service);
        return watch == null ? new GcPauses(0, 0, 0) : GcLog.pauses(watch.gcEvents(), from, to);
    }

    /** Waits until a started instance's health checks pass (e.g. its shared event stream is connected), at most 30 s. */
    protected static void awaitHealthy(Target instance) throws InterruptedException {
        URI health = instance.adminUri().orElseThrow().resolve("/healthcheck");
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (SimpleHttp http = SimpleHttp.http1()) {
            while (http.get(health, Duration.ofSeconds(5)).status() != 200) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(health + " not healthy within 30 s: is Redis reachable?");
                }
                Thread.sleep(100);
            }
        }
    }

    /**
     * Further gauges (metric names of the service's admin /metrics) the service watches sample once a second; none
     * by default. A scenario that wants them (e.g. parked polls over a soak) overrides this.
     */
    protected List<String> serviceGauges() {
        return List.of();
    }

    /** Whether {@code --profile} was given. */
    protected final boolean profiling() {
        return options.profile;
    }

    /**
     * Whether {@code --profile} attaches a profiler to each service from its start (the default); a scenario that
     * profiles chosen stretches of its own, outside what it measures, returns false.
     */
    protected boolean profilesEachService() {
        return true;
    }

    /**
     * With {@code --profile}: the measured phase of {@code service} begins now. The profile so far (start-up,
     * warm-up) is written as {@code <service>-flame.html} and a new one, {@code <service>-<stage>-flame.html},
     * runs until the service is closed. Does nothing without --profile.
     */
    protected final void profileFromHere(Target service, String stage, Report report) {
        if (options.profile) {
            stopProfiler(service, report);
            startProfiler(service, "-" + stage, report);
        }
    }

    private void startProfiler(Target service, String suffix, Report report) {
        Optional<Long> pid = service.serverCpu().process().map(ProcessHandle::pid);
        if (pid.isEmpty()) {
            report.note("--profile: " + service.name() + " not profiled (its process id is unknown: give --server-pid with --url).");
            return;
        }
        try {
            profilers.put(service, Profiler.start(pid.get(), report.directory().resolve(service.name() + suffix + "-flame.html")));
        } catch (IOException e) {
            report.note("--profile: " + e.getMessage());
        }
    }

    private void stopProfiler(Target service, Report report) {
        Profiler profiler = profilers.remove(service);
        if (profiler == null) {
            return;
        }
        Optional<String> failure = profiler.stop();
        String file = profiler.flameGraph().getFileName().toString();
        report.note(failure.map(words -> "--profile: the flame graph " + file + " was not written: " + words)
                .orElse("Flame graph of " + service.name() + " (async-profiler, " + ("cpu".equals(profiler.event())
                        ? "cpu event: perf events, or ctimer where they are refused" : profiler.event() + " sampling: the cpu event could not start") + "): [" + file + "](" + file + ")"));
    }

    final Duration defaultMaxDuration() {
        return defaultMaxDuration;
    }
}
