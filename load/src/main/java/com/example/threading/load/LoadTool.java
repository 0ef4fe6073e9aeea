package com.example.threading.load;

import com.example.threading.load.scenario.ScenarioOptions;
import com.example.threading.load.scenario.cluster.ClusterScenario;
import com.example.threading.load.scenario.cost.CostScenario;
import com.example.threading.load.scenario.limit.LimitScenario;
import com.example.threading.load.scenario.longpoll.LongPollScenario;
import com.example.threading.load.scenario.probe.ProbeScenario;
import com.example.threading.load.scenario.soak.SoakScenario;
import com.example.threading.load.scenario.sse.SseScenario;
import com.example.threading.load.scenario.topics.TopicsScenario;
import com.example.threading.load.scenario.topology.TopologyScenario;
import com.example.threading.load.scenario.wave.WaveScenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code java -jar load/target/threading-load.jar <scenario> [options]}: one command per experiment. */
@Command(name = "threading-load", mixinStandardHelpOptions = true, version = "threading-load 1.0",
        description = "Runs the experiments of the threading reference service and writes a report folder "
                + "(report.md, PNG plots, HdrHistogram logs, results.json).",
        subcommands = {WaveScenario.class, LongPollScenario.class, ProbeScenario.class, LimitScenario.class, SoakScenario.class,
                ClusterScenario.class, TopologyScenario.class, TopicsScenario.class, CostScenario.class, SseScenario.class})
public final class LoadTool {

    private LoadTool() {
    }

    /** Runs one scenario and exits with its status (0 = report written). */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs one scenario in this JVM and returns the exit status (what the tests call). */
    public static int run(String... args) {
        System.setProperty("java.awt.headless", "true");
        return ScenarioOptions.configure(new CommandLine(LoadTool.class)).execute(args);
    }
}
