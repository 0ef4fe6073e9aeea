package com.example.threading.load.scenario;

import com.example.threading.load.report.Durations;
import com.example.threading.load.service.TargetOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * The options every scenario accepts, as one picocli mixin: where the load goes ({@link TargetOptions}), where
 * the report goes, whether to show progress, whether to profile the service, the hard time limit (whose default each scenario sets, see
 * {@link ScenarioCommand#ScenarioCommand(Duration)}), and {@code -h}/{@code -V}.
 */
@Command(mixinStandardHelpOptions = true)
public final class ScenarioOptions {

    private static final String MAX_DURATION = "--max-duration";

    @Mixin
    TargetOptions target;

    @Option(names = "--out", description = "Folder that receives one sub-folder per run (default: load/reports, or reports inside load/)")
    Path out;

    @Option(names = "--no-progress", description = "No progress bar")
    boolean noProgress;

    @Option(names = "--profile", description = "Attach async-profiler to each service (CPU; itimer where perf events are refused) "
            + "and write its flame graph into the report folder: from the measured phase on where the scenario marks one, else the service's whole life "
            + "(cost: a CPU and an allocation flame graph per endpoint, in extra stretches after the measured ones)")
    boolean profile;

    @Option(names = MAX_DURATION, description = "Hard limit for the whole run (default: ${DEFAULT-VALUE})")
    Duration maxDuration;

    /**
     * Teaches a command line holding scenarios how to read their options: durations as people type them,
     * enum values in any case, and each scenario's own default for {@code --max-duration}.
     */
    public static CommandLine configure(CommandLine commandLine) {
        return commandLine.registerConverter(Duration.class, Durations::parse)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setDefaultValueProvider(ScenarioOptions::scenarioDefault);
    }

    /** The scenario's --max-duration default; null (the annotation's default, if any) for every other option. */
    private static String scenarioDefault(ArgSpec argument) {
        if (argument instanceof OptionSpec option && option.longestName().equals(MAX_DURATION)
                && argument.command().userObject() instanceof ScenarioCommand scenario) {
            return Durations.format(scenario.defaultMaxDuration());
        }
        return null;
    }

    /** A new folder for one run of {@code scenario}: {@code <--out>/<scenario>-<timestamp>}, not yet created. */
    Path runFolder(String scenario) {
        Path base = out != null ? out : Files.isDirectory(Path.of("load")) ? Path.of("load", "reports") : Path.of("reports");
        return base.resolve(scenario + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS")));
    }
}
