package com.example.threading.load.scenario.longpoll;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static com.example.threading.load.scenario.ReportAssertions.phase;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.recording.HistogramLogs;
import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LongPollScenarioTest {

    private static final int CLIENTS = 40;
    private static final int ITERATIONS = 3;

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void clientsPollEachEndpointTheirIterationsOrTheMissingEndpointIsReported(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "longpoll", "--clients", Integer.toString(CLIENTS), "--iterations", Integer.toString(ITERATIONS),
                "--tick", "500ms", "--threads", "60", "--poll-timeout", "5", "--endpoint-limit", "40s", "--max-duration", "100s");
        assertThat(folder.resolve("report.md")).isNotEmptyFile();
        assertThat(folder.resolve("results.json")).isNotEmptyFile();
        JsonNode results = new com.fasterxml.jackson.databind.ObjectMapper().readTree(folder.resolve("results.json").toFile());
        String notes = results.path("notes").toString();
        for (String endpoint : new String[] {"/events", "/events/blocking"}) {
            if (notes.contains(endpoint + " answered 404")) {
                // Not in this build yet: skipped, and the report says so.
                assertThat(results.path("data").path("longpoll").has(endpoint)).isFalse();
                continue;
            }
            assertReportFiles(folder);
            JsonNode poll = phase(results, endpoint);
            assertThat(poll.path("sent").asLong()).as(endpoint).isEqualTo((long) CLIENTS * ITERATIONS);
            assertThat(poll.path("outcomes").path("OK").asLong()).as(endpoint).isEqualTo((long) CLIENTS * ITERATIONS);
            JsonNode data = results.path("data").path("longpoll").path(endpoint);
            assertThat(data.path("complete").asBoolean()).isTrue();
            assertThat(data.path("events").asLong()).as("events received").isPositive();
            // At best every client is answered once per tick: C / tick = 80 req/s.
            assertThat(data.path("ratioToLimit").asDouble()).isPositive().isLessThanOrEqualTo(1.5);
        }
        assertThat(results.path("tables").get(0).path("title").asText()).contains(CLIENTS + " clients × " + ITERATIONS + " iterations");
    }

    @Test
    void anEndpointIsMeasuredOnceMoreOnVirtualThreadsOrTheRefusalIsReported(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "longpoll", "--clients", "20", "--iterations", "2", "--tick", "500ms",
                "--threads", "60", "--poll-timeout", "5", "--endpoint-limit", "30s", "--max-duration", "90s",
                "--endpoints", "/events", "--on-virtual-threads", "/events/blocking");
        JsonNode results = new com.fasterxml.jackson.databind.ObjectMapper().readTree(folder.resolve("results.json").toFile());
        String label = "/events/blocking" + LongPollScenario.VIRTUAL_THREADS_SUFFIX;
        if (ReportAssertions.virtualThreads()) {
            JsonNode poll = phase(results, label);
            assertThat(poll.path("outcomes").path("OK").asLong()).isEqualTo(40);
            assertThat(results.path("data").path("longpoll").path(label).path("complete").asBoolean()).isTrue();
        } else {
            assertThat(results.path("notes").toString()).contains(label + " skipped").contains("needs JDK 21+");
            assertThat(results.path("data").path("longpoll").has(label)).isFalse();
        }
        assertThat(phase(results, "/events").path("outcomes").path("OK").asLong()).isEqualTo(40);
    }

    @Test
    void clientsSplitOverTwoProcessesEachHoldAConnectionOfTheirOwn(@TempDir Path out) throws Exception {
        int clients = 300;
        Path folder = ReportAssertions.run(out, "longpoll", "--clients", Integer.toString(clients), "--iterations", "3", "--tick", "500ms",
                "--poll-timeout", "5", "--endpoint-limit", "60s", "--max-duration", "120s", "--endpoints", "/events", "--processes", "2");
        JsonNode results = new com.fasterxml.jackson.databind.ObjectMapper().readTree(folder.resolve("results.json").toFile());
        assertThat(phase(results, "/events").path("outcomes").path("OK").asLong()).isEqualTo(clients * 3L);
        JsonNode processes = results.path("data").path("clientProcesses").path("/events").path("processes");
        assertThat(processes).hasSize(2);
        java.util.Set<Long> pids = new java.util.HashSet<>();
        for (JsonNode process : processes) {
            pids.add(process.path("pid").asLong());
            JsonNode sockets = process.path("connections");
            assertThat(sockets.path("clients").asInt()).isEqualTo(clients / 2);
            // One socket per client, counted by the client's I/O layer: open when polling began, and never more.
            assertThat(sockets.path("openAtStart").asInt()).isEqualTo(clients / 2);
            assertThat(sockets.path("peakOpen").asInt()).isEqualTo(clients / 2);
        }
        assertThat(pids).hasSize(2).doesNotContain(ProcessHandle.current().pid());
        // The service saw them as sockets too: its open files (sampled once a second) reached one per client.
        double serviceOpenFiles = 0;
        for (JsonNode sample : results.path("data").path("jvms").get(0).path("samples")) {
            serviceOpenFiles = Math.max(serviceOpenFiles, sample.path("openFiles").asDouble());
        }
        assertThat(serviceOpenFiles).isGreaterThanOrEqualTo(clients);
        // Every answer of both processes is in the merged HdrHistogram log.
        assertThat(HistogramLogs.sum(folder.resolve(phase(results, "/events").path("histogramLog").asText()), 0).orElseThrow()
                .getTotalCount()).isEqualTo(clients * 3L);
        assertThat(results.path("data").path("clientProcesses").path("/events").has("toolKeptUp")).isTrue();
    }
}
