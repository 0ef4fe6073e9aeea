package com.example.threading.load.scenario;

import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import com.example.threading.load.target.Target;
import com.example.threading.load.target.TargetOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What every scenario shares: the target, the report folder, progress, and a hard time limit enforced by a
 * watchdog (the JVM exits, and its shutdown hook kills the child service, if a scenario overruns it).
 */
public abstract class ScenarioCommand implements Callable<Integer> {

    @Mixin
    protected TargetOptions target;

    @Spec
    CommandSpec spec;

    @Option(names = "--out", description = "Folder that receives one sub-folder per run (default: load/reports, or reports inside load/)")
    Path out;

    @Option(names = "--no-progress", description = "No progress bar")
    boolean noProgress;

    private long deadlineNanos;

    /** The scenario's hard limit on wall time (its --max-duration). */
    protected abstract Duration maxDuration();

    /** Runs the experiment and fills the report. */
    protected abstract void run(Report report) throws Exception;

    @Override
    public final Integer call() throws Exception {
        String name = spec.name();
        Path base = out != null ? out : Files.isDirectory(Path.of("load")) ? Path.of("load", "reports") : Path.of("reports");
        Path directory = base.resolve(name + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")));
        Files.createDirectories(directory);
        String command = "java -jar load/target/threading-load.jar " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
        Report report = new Report(name, directory, command);
        deadlineNanos = System.nanoTime() + maxDuration().toNanos();
        Thread watchdog = startWatchdog(maxDuration().plusSeconds(60));
        try {
            run(report);
        } finally {
            watchdog.interrupt();
        }
        report.configure("max duration", maxDuration());
        Path file = report.write();
        report.tables().forEach(table -> System.out.println("\n" + table.title() + "\n" + Report.markdown(table)));
        report.notes().forEach(note -> System.out.println("note: " + note));
        System.out.println("report: " + file.toAbsolutePath());
        return 0;
    }

    /** The scenario's hard deadline (System.nanoTime). */
    protected final long deadlineNanos() {
        return deadlineNanos;
    }

    /** The earlier of the scenario's deadline and {@code from now + duration}. */
    protected final long deadlineWithin(Duration duration) {
        return Math.min(deadlineNanos, System.nanoTime() + duration.toNanos());
    }

    /** Whether the scenario's time is up (later parts are then skipped with a note). */
    protected final boolean timeIsUp() {
        return System.nanoTime() >= deadlineNanos;
    }

    protected final boolean progress() {
        return !noProgress;
    }

    /** Opens the target for one part of the scenario (see {@link TargetOptions#open}) and puts what it says into the report. */
    protected final Target open(Report report, Map<String, String> environment, List<String> systemProperties) throws IOException, InterruptedException {
        Target opened = target.open(report.directory(), environment, systemProperties);
        opened.caveats().forEach(report::note);
        opened.facts().forEach(report::environment);
        return opened;
    }

    private static Thread startWatchdog(Duration limit) {
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(limit.toMillis());
                System.err.println("hard time limit of " + Durations.format(limit) + " exceeded: stopping (the service child is killed)");
                System.exit(3);
            } catch (InterruptedException finished) {
                // The scenario ended in time.
            }
        }, "scenario-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        return watchdog;
    }
}
