package com.example.threading.load.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.LoadTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The command line as users know it: every scenario's options, their defaults, and a clean --help. */
class ScenarioOptionsTest {

    private static final List<String> SHARED = List.of("--admin-url", "--config", "--env", "--help", "--jar", "--java", "--jvm-option", "--max-duration",
            "--no-progress", "--out", "--profile", "--request-log", "--server-pid", "--url", "--version");

    /** Each scenario's own options, as they were before the tool was split into layers. */
    private static final Map<String, List<String>> OWN = Map.of(
            "wave", List.of("--concurrency", "--fanout-ms", "--fanout-n", "--fanout-timeout", "--ms", "--patterns", "--pause", "--vias", "--waves"),
            "longpoll", List.of("--clients", "--endpoint-limit", "--endpoints", "--iterations", "--on-virtual-threads", "--poll-timeout",
                    "--processes", "--threads", "--tick", "--wait-next"),
            "probe", List.of("--cross-check", "--find-rate", "--idle-timeout", "--loaders", "--path", "--probe-rate", "--protocols", "--rate", "--record",
                    "--search-step", "--search-steps", "--target-cpu", "--warmup", "--probe-process", "--probe-jvm-options", "--connections", "--loader-engine",
                    "--loader-connection-rate", "--probe-java", "--probe-nice"),
            "limit", List.of("--admission", "--idle-timeout", "--ms", "--pattern", "--pause", "--protocol", "--rates", "--step"),
            "soak", List.of("--blocking-pollers", "--connections", "--duration", "--fanout", "--full-gc-every", "--idle-timeout", "--ms", "--patterns", "--poll-timeout",
                    "--pollers", "--rate"),
            "cluster", List.of("--clients", "--duration", "--instances", "--kill-one", "--poll-timeout", "--rate", "--redis-uri",
                    "--skip-in-process"),
            "topology", List.of("--baseline", "--compose", "--faults", "--followers", "--hold", "--image", "--instance", "--link-delay",
                    "--link-jitter", "--link-loss", "--poll-timeout", "--rate", "--service-warm-up", "--settle", "--warm-up", "--work-rate"),
            "topics", List.of("--batch-size", "--clients", "--duration", "--instances", "--masters", "--message-bytes", "--poll-timeout", "--publish", "--rate", "--redis-uri",
                    "--rooms", "--rooms-per-client", "--streams", "--transport", "--warmup"),
            "cost", List.of("--baseline", "--baseline-config", "--batch-only", "--batch-polls", "--batch-rounds", "--batch-streams", "--batch-warmup",
                    "--compare-request-log", "--connections", "--events-per-second", "--polls", "--seconds", "--warmup"),
            "sse", List.of("--ballast-bytes", "--ballast-rate", "--drain-timeout", "--duration", "--http1-streams", "--message-bytes", "--parts",
                    "--rate", "--readers-per-room", "--rooms", "--rooms-warmup", "--rounds", "--socket-protocol", "--sockets", "--streams",
                    "--warmup-rounds"));

    private static final Map<String, Duration> MAX_DURATION = Map.of("wave", Duration.ofSeconds(900), "longpoll", Duration.ofSeconds(600),
            "probe", Duration.ofSeconds(1200), "limit", Duration.ofSeconds(300), "soak", Duration.ofSeconds(1200),
            "cluster", Duration.ofSeconds(300), "topology", Duration.ofSeconds(900), "topics", Duration.ofSeconds(600),
            "cost", Duration.ofSeconds(900), "sse", Duration.ofSeconds(1200));

    private static CommandLine tool() {
        return ScenarioOptions.configure(new CommandLine(LoadTool.class));
    }

    @Test
    void everyScenarioListsTheSharedOptionsAndItsOwnNothingMore() {
        assertThat(tool().getSubcommands().keySet()).containsExactly("wave", "longpoll", "probe", "limit", "soak", "cluster", "topology", "topics",
                "cost", "sse");
        tool().getSubcommands().forEach((name, scenario) -> {
            TreeSet<String> expected = new TreeSet<>(SHARED);
            expected.addAll(OWN.get(name));
            TreeSet<String> actual = new TreeSet<>();
            scenario.getCommandSpec().options().forEach(option -> actual.add(option.longestName()));
            assertThat(actual).as(name).containsExactlyElementsOf(expected);
        });
    }

    @Test
    void eachScenarioKeepsItsOwnHardLimitByDefaultAndTheCommandLineOverridesIt() {
        MAX_DURATION.forEach((name, limit) -> {
            CommandLine tool = tool();
            tool.parseArgs(name);
            ScenarioCommand scenario = tool.getSubcommands().get(name).getCommand();
            assertThat(scenario.options.maxDuration).as(name).isEqualTo(limit);
            OptionSpec option = tool.getSubcommands().get(name).getCommandSpec().findOption("--max-duration");
            assertThat(option.defaultValueString()).as(name).isEqualTo(limit.toSeconds() + "s");
        });
        CommandLine tool = tool();
        tool.parseArgs("limit", "--max-duration", "90s", "--pause", "250ms");
        ScenarioCommand limit = tool.getSubcommands().get("limit").getCommand();
        assertThat(limit.options.maxDuration).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void everyHelpPrintsWithoutPicocliWarningsAndShowsTheDefaults() {
        for (String name : OWN.keySet()) {
            PrintStream err = System.err;
            ByteArrayOutputStream warnings = new ByteArrayOutputStream();
            String help;
            try {
                System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
                help = tool().getSubcommands().get(name).getUsageMessage();
            } finally {
                System.setErr(err);
            }
            assertThat(warnings.toString(StandardCharsets.UTF_8)).as(name + " --help on stderr").isEmpty();
            assertThat(help).as(name).contains("Hard limit for the whole run (default: " + MAX_DURATION.get(name).toSeconds() + "s)")
                    .doesNotContain("${DEFAULT-VALUE}").doesNotContain("%n");
        }
        assertThat(tool().getSubcommands().get("probe").getUsageMessage()).contains("% of all").doesNotContain("%%");
    }

    @Test
    void badInputIsAUsageErrorNotACrash() {
        assertThat(LoadTool.run("wave", "--no-such-option")).isEqualTo(2);
        assertThat(LoadTool.run("limit", "--pause", "soon")).isEqualTo(2);
        assertThat(LoadTool.run("limit", "--protocol", "h2c", "--help")).as("enum values in any case").isZero();
    }
}
