package com.example.threading.load.scenario.topology;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.scenario.ReportAssertions;
import com.example.threading.load.service.topology.Network;
import com.example.threading.load.service.topology.BuiltImage;
import com.example.threading.load.service.topology.TopologyMachine;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped deployment (deploy/, the Dockerfile, the service jar) run in namespaces and put through every fault, in a
 * short configuration: it serves as documented, no follower loses, repeats or reorders an event in any phase, the
 * balancer takes the faulted hosts out and brings them back, publishes are refused only with 503 + Retry-After while
 * Redis is away, and nothing of the run remains afterwards. Timings are asserted only with bounds a busy machine meets;
 * the figures themselves are the scenario's to report.
 */
class TopologyScenarioTest {

    /** Far above two check intervals (4 s): a bound that holds on a loaded 2-core machine, yet fails a host never taken out. */
    private static final double GENEROUS_SECONDS = 30;

    @Test
    void theShippedTopologyServesAsDocumentedAndSurvivesEveryFault(@TempDir Path out) throws Exception {
        TopologyMachine.require();
        ReportAssertions.requireServiceJar();
        BuiltImage.get();
        Path folder = ReportAssertions.run(out, "topology", "--image", BuiltImage.bundle().toString(), "--followers", "8", "--rate", "10", "--work-rate", "4", "--poll-timeout", "2",
                "--service-warm-up", "2s", "--baseline", "4s", "--warm-up", "2s", "--hold", "3s", "--settle", "2s", "--max-duration", "170s");
        JsonNode results = assertReportFiles(folder);
        JsonNode topology = results.path("data").path("topology");

        List<String> failed = new ArrayList<>();
        topology.path("checks").forEach(check -> {
            if (!check.path("passed").asBoolean()) {
                failed.add(check.toString());
            }
        });
        assertThat(failed).as("deployment checks").isEmpty();

        JsonNode phases = topology.path("phases");
        assertThat(phases.fieldNames()).toIterable().containsExactly("direct to the instances (1 of 2)", "through the balancer (1 of 2)",
                "through the balancer (2 of 2)", "direct to the instances (2 of 2)", "kill", "redis-cut", "link", "redis-restart");
        assertThat(topology.path("baselines").path("balancedP99Ms").asDouble()).isPositive();
        phases.fields().forEachRemaining(phase -> {
            JsonNode p = phase.getValue();
            assertThat(p.path("published").asLong()).as(phase.getKey()).isGreaterThan(10);
            assertThat(p.path("followers").asInt()).as(phase.getKey()).isEqualTo(8);
            assertThat(p.path("lost").asLong() + p.path("duplicated").asLong() + p.path("outOfOrder").asLong())
                    .as("%s: lost + duplicated + out of order", phase.getKey()).isZero();
            assertThat(p.path("publishesAbandoned").asLong()).as(phase.getKey()).isZero();
        });

        assertRotation(phases.path("kill"), "out of rotation after SIGKILL", "back in rotation after it is ready");
        assertRotation(phases.path("redis-cut"), "out of rotation after the cut", "back in rotation after it is ready");
        assertRotation(phases.path("redis-restart"), "out of rotation after Redis stopped", "back in rotation after it is ready");
        // While Redis is away, a publish is refused by an instance (its stream cannot take it) or by the balancer (no
        // instance ready): both with Retry-After, nothing else.
        JsonNode refusals = phases.path("redis-restart").path("publishRefusals");
        assertThat(refusals.size()).as("publishes were refused while Redis was away: %s", refusals).isPositive();
        assertThat(refusals.fieldNames()).toIterable().containsOnly("503 + Retry-After");

        String notes = results.path("notes").toString();
        assertThat(notes).contains("Torn down: no namespace, link, /etc/netns folder or socket of this run remains.");
        // This JVM ran the scenario: its prefix names everything it made.
        assertThat(Network.remainsOf("tp" + ProcessHandle.current().pid())).isEmpty();
        assertThat(Files.readString(folder.resolve("report.md"))).contains("## Goals");
    }

    @Test
    void readsTheCheckIntervalFromHaproxysConfiguration() {
        assertThat(TopologyScenario.checkIntervalSeconds("backend b\n    default-server check inter 2s fastinter 500ms fall 2\n")).isEqualTo(2.0);
        assertThat(TopologyScenario.checkIntervalSeconds("    server a a:80 check inter 1500\n")).isEqualTo(1.5);
        assertThat(TopologyScenario.checkIntervalSeconds("    server a a:80 check fastinter 100ms\n")).as("HAProxy's default").isEqualTo(2.0);
    }

    private static void assertRotation(JsonNode phase, String out, String back) {
        List<String> steps = new ArrayList<>();
        phase.path("rotation").forEach(figure -> steps.add(figure.path("step").asText()));
        assertThat(steps).contains(out, back);
        phase.path("rotation").forEach(figure -> {
            String step = figure.path("step").asText();
            if (step.equals(out) || step.equals(back)) {
                assertThat(figure.path("seconds").isNumber()).as("%s happened: %s", step, phase.path("rotation")).isTrue();
                assertThat(figure.path("seconds").asDouble()).as(step).isBetween(0.0, GENEROUS_SECONDS);
            }
        });
    }
}
