package com.example.threading.load.scenario.wave;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static com.example.threading.load.scenario.ReportAssertions.phase;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WaveScenarioTest {

    private static final int CONCURRENCY = 60;
    private static final int MS = 500;

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void wavesOfConcurrentRequestsAreTimedPerPatternAndABoundedPoolMakesTheOverflowWait(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "wave", "--patterns", "blocking,bounded,virtual", "--concurrency", Integer.toString(CONCURRENCY),
                "--waves", "2", "--ms", Integer.toString(MS), "--vias", "managed,common", "--fanout-n", "4", "--fanout-ms", "100",
                "--max-duration", "120s");
        JsonNode results = assertReportFiles(folder);
        assertThat(folder.resolve("waves.png")).isNotEmptyFile();
        assertThat(results.path("phases")).hasSize(6);

        for (int wave = 1; wave <= 2; wave++) {
            JsonNode blocking = phase(results, "blocking-wave-" + wave);
            assertThat(blocking.path("sent").asLong()).isEqualTo(CONCURRENCY);
            assertThat(blocking.path("outcomes").path("OK").asLong()).isEqualTo(CONCURRENCY);
            // Every request waits MS on the server, measured from the wave's start.
            assertThat(blocking.path("latencyMs").path("min").asDouble()).isGreaterThanOrEqualTo(MS);

            // 50 threads: the 10 requests beyond them start only when a first one is done, so the wave takes two rounds.
            JsonNode bounded = phase(results, "bounded-wave-" + wave);
            assertThat(bounded.path("outcomes").path("OK").asLong()).isEqualTo(CONCURRENCY);
            assertThat(bounded.path("latencyMs").path("min").asDouble()).isGreaterThanOrEqualTo(MS);
            assertThat(bounded.path("latencyMs").path("max").asDouble()).isGreaterThanOrEqualTo(2 * MS);

            JsonNode virtual = phase(results, "virtual-wave-" + wave);
            String expected = ReportAssertions.virtualThreads() ? "OK" : "UNAVAILABLE_501";
            assertThat(virtual.path("outcomes").path(expected).asLong()).as(expected).isEqualTo(CONCURRENCY);
        }
        if (!ReportAssertions.virtualThreads()) {
            assertThat(results.path("notes").toString()).contains("virtual").contains("unavailable on the server's JDK");
        }

        JsonNode table = results.path("tables").get(0);
        assertThat(table.path("rows")).hasSize(3);
        assertThat(table.path("rows").get(0).get(0).asText()).isEqualTo("blocking");
        assertThat(results.path("data").path("waves").path("blocking").path("waveMs")).hasSize(2);

        // This build serves /fanout: the scenario's skip for a build without it (a 404) must not pass here.
        assertThat(results.path("notes").toString()).doesNotContain("/fanout answered 404");
        for (String via : new String[] {"managed", "common"}) {
            JsonNode calls = results.path("data").path("fanout").path(via);
            assertThat(calls).as(via).hasSize(2);
            calls.forEach(call -> assertThat(call.path("status").asInt()).as(via).isEqualTo(200));
        }
    }
}
