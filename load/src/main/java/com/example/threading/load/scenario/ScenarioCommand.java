package com.example.threading.load.scenario;

import com.example.threading.load.engine.Progress;
import com.example.threading.load.report.Durations;
import com.example.threading.load.report.Report;
import com.example.threading.load.target.Target;
import com.example.threading.load.target.TargetOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The life of every scenario: it gets the shared {@link ScenarioOptions}, a fresh report folder, a
 * {@link Deadline} and a {@link Watchdog} that ends the JVM (and so the service child) should the scenario
 * overrun its hard limit by a minute; its {@link #run} measures and fills the report, which is then written
 * and its tables printed.
 *
 * <p>Thread-safety: picocli fills the options and calls {@link #call()} on one thread, the scenario's thread;
 * {@link #run} and every protected method are called on it. Only the watchdog runs elsewhere.
 */
public abstract class ScenarioCommand implements Callable<Integer> {

    @Mixin
    ScenarioOptions options;

    @Spec
    CommandSpec spec;

    private final Duration defaultMaxDuration;
    private Deadline deadline;

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
        try {
            run(report);
        } finally {
            watchdog.close();
        }
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
        Target opened = options.target.open(report.directory(), environment, systemProperties);
        opened.caveats().forEach(report::note);
        opened.facts().forEach(report::environment);
        return opened;
    }

    final Duration defaultMaxDuration() {
        return defaultMaxDuration;
    }
}
