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
    void pastTheAdmissionLimitTheServiceAnswers503WithItOnAndQueuesWithItOffEveryRequestAccountedFor(@TempDir Path out)
            throws Exception {
        // Admission control with 10 places and 10 queued for 200 ms, 1 s per request: at most 20 in flight. 5 req/s
        // keeps about 5 in flight; 200 req/s passes 20 within a fraction of a second, even from a sender starved of
        // CPU. Off, the same 200 req/s for 2 s are at most 400 waits of 1 s on 200 Jetty threads: queued, all answered.
        Path folder = ReportAssertions.run(out, "limit", "--pattern", "blocking", "--ms", "1000", "--rates", "5,200",
                "--step", "2s", "--pause", "1s", "--env", "ADMISSION_MAX_REQUESTS=10", "--env", "ADMISSION_MAX_QUEUED=10",
                "--env", "ADMISSION_MAX_QUEUE_TIME=200ms", "--max-duration", "90s");
        JsonNode results = assertReportFiles(folder);
        for (String plot : new String[] {"limit-throughput.png", "limit-latency.png", "admission-on-throughput.png",
                "admission-off-throughput.png"}) {
            assertThat(folder.resolve(plot)).isNotEmptyFile();
        }

        for (String mode : new String[] {"on", "off"}) {
            JsonNode below = phase(results, "admission-" + mode + "-5");
            assertThat(below.path("sent").asLong()).as(mode).isBetween(5L, 20L);
            assertThat(below.path("outcomes").path("OK").asLong()).as(mode).isEqualTo(below.path("sent").asLong());
            assertThat(below.path("latencyMs").path("min").asDouble()).as(mode).isGreaterThanOrEqualTo(1000);
        }

        JsonNode on = phase(results, "admission-on-200");
        assertThat(on.path("sent").asLong()).as("requests the sender managed to send").isBetween(30L, 500L);
        assertThat(on.path("outcomes").path("REJECTED_503").asLong()).as("503s past the admission limit").isPositive();
        assertThat(on.path("outcomes").path("OK").asLong()).as("2xx past the admission limit").isGreaterThanOrEqualTo(10);
        JsonNode off = phase(results, "admission-off-200");
        assertThat(off.path("outcomes").path("REJECTED_503").asLong()).as("no admission control, no 503").isZero();
        assertThat(off.path("outcomes").path("OK").asLong()).as("all queued and answered").isEqualTo(off.path("sent").asLong());

        JsonNode sideBySide = results.path("tables").get(0).path("rows");
        assertThat(sideBySide).hasSize(4);
        assertThat(sideBySide.get(0).get(0).asText() + " " + sideBySide.get(0).get(1).asText()).isEqualTo("5 on");
        assertThat(sideBySide.get(1).get(0).asText() + " " + sideBySide.get(1).get(1).asText()).isEqualTo("5 off");
        assertThat(sideBySide.get(2).get(0).asText() + " " + sideBySide.get(2).get(1).asText()).isEqualTo("200 on");
        assertThat(sideBySide.get(3).get(0).asText() + " " + sideBySide.get(3).get(1).asText()).isEqualTo("200 off");
        assertThat(results.path("environment").path("service overrides").asText()).contains("ADMISSION_MAX_REQUESTS=10");
    }
}
