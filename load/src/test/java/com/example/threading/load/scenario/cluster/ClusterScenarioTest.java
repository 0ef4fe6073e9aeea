package com.example.threading.load.scenario.cluster;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The cluster scenario in a tiny configuration: two instances on a redis-server it starts, one killed half-way. */
class ClusterScenarioTest {

    @BeforeAll
    static void serviceJarIsBuiltAndRedisInstalled() {
        ReportAssertions.requireServiceJar();
        try {
            new ProcessBuilder("redis-server", "--version").start().waitFor();
        } catch (IOException | InterruptedException notInstalled) {
            Assumptions.abort("SKIPPED: redis-server is not on the PATH (apt-get install -y redis-server); the cluster scenario needs it");
        }
    }

    @Test
    void everyFollowerGetsEveryEventOnceInOrderAlsoWhenAnInstanceIsKilled(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "cluster", "--clients", "6", "--rate", "10", "--duration", "4s",
                "--poll-timeout", "2", "--kill-one", "--skip-in-process", "--max-duration", "120s");
        JsonNode results = assertReportFiles(folder);
        assertThat(folder.resolve("delivery-percentiles.png")).isNotEmptyFile();
        JsonNode phase = results.path("data").path("cluster").path("redis, 2 instances, one killed");
        assertThat(phase.path("published").asLong()).isGreaterThan(10);
        assertThat(phase.path("followers").asInt()).isEqualTo(6);
        assertThat(phase.path("lost").asLong()).isZero();
        assertThat(phase.path("duplicated").asLong()).isZero();
        assertThat(phase.path("outOfOrder").asLong()).isZero();
        assertThat(phase.path("killed").asText()).startsWith("http://127.0.0.1:");
        assertThat(results.path("environment").path("Redis").asText()).contains("Redis server");
    }
}
