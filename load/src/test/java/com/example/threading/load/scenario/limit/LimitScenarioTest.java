package com.example.threading.load.scenario.limit;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static com.example.threading.load.scenario.ReportAssertions.phase;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LimitScenarioTest {

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void pastTheBoundedPoolsCapacityTheServiceAnswers503AndEveryRequestIsAccountedFor(@TempDir Path out) throws Exception {
        // A bounded pool of 5 threads + 5 queued, 1 s per request: at most 10 in flight. 5 req/s keeps about 5 in
        // flight; 200 req/s passes 10 within a fraction of a second, even from a sender starved of CPU.
        Path folder = ReportAssertions.run(out, "limit", "--pattern", "bounded", "--ms", "1000", "--rates", "5,200",
                "--step", "2s", "--pause", "1s", "--env", "WORK_BOUNDED_THREADS=5", "--env", "WORK_BOUNDED_QUEUE=5",
                "--max-duration", "60s");
        JsonNode results = assertReportFiles(folder);
        assertThat(folder.resolve("limit-throughput.png")).isNotEmptyFile();
        assertThat(folder.resolve("limit-latency.png")).isNotEmptyFile();

        JsonNode below = phase(results, "step-5");
        assertThat(below.path("sent").asLong()).isBetween(5L, 20L);
        assertThat(below.path("outcomes").path("OK").asLong()).isEqualTo(below.path("sent").asLong());
        assertThat(below.path("latencyMs").path("min").asDouble()).isGreaterThanOrEqualTo(1000);

        JsonNode past = phase(results, "step-200");
        assertThat(past.path("sent").asLong()).as("requests the sender managed to send").isBetween(30L, 500L);
        assertThat(past.path("outcomes").path("REJECTED_503").asLong()).as("503s past capacity").isPositive();
        assertThat(past.path("outcomes").path("OK").asLong()).as("2xx past capacity").isGreaterThanOrEqualTo(10);

        JsonNode steps = results.path("tables").get(0).path("rows");
        assertThat(steps).hasSize(2);
        assertThat(steps.get(0).get(0).asText()).isEqualTo("5");
        assertThat(steps.get(1).get(0).asText()).isEqualTo("200");
        assertThat(results.path("environment").path("service overrides").asText()).contains("WORK_BOUNDED_THREADS=5");
    }
}
