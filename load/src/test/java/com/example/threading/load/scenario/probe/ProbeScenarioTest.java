package com.example.threading.load.scenario.probe;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static com.example.threading.load.scenario.ReportAssertions.phase;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.CrossCheck;
import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProbeScenarioTest {

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void probeAndLoadersRecordOverHttp1AndH2cWithTheServersCpu(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "probe", "--path", "/work/blocking?ms=1", "--rate", "100", "--loaders", "2",
                "--probe-rate", "20", "--warmup", "1s", "--record", "3s", "--protocols", "HTTP1,H2C",
                "--find-rate", "--target-cpu", "50", "--search-step", "1s", "--search-steps", "2", "--max-duration", "90s", "--profile", "--cross-check");
        JsonNode results = assertReportFiles(folder);
        assertThat(folder.resolve("percentiles.png")).isNotEmptyFile();
        assertThat(folder.resolve("throughput.png")).isNotEmptyFile();
        assertThat(folder.resolve("latency.png")).isNotEmptyFile();

        for (String protocol : new String[] {"http1", "h2c"}) {
            JsonNode probe = phase(results, "probe-" + protocol + "-record");
            // 20 req/s for about 3 s, every one answered 2xx with at least the 1 ms of work.
            assertThat(probe.path("sent").asLong()).as(protocol).isBetween(40L, 100L);
            assertThat(probe.path("outcomes").path("OK").asLong()).as(protocol).isEqualTo(probe.path("sent").asLong());
            assertThat(probe.path("latencyMs").path("min").asDouble()).as(protocol).isGreaterThanOrEqualTo(1.0);
            assertThat(probe.path("serverCpuPercent").asDouble()).as("server CPU measured").isPositive();
            assertThat(probe.path("protocol").asText()).isEqualTo(protocol.equals("h2c") ? "h2c" : "HTTP/1.1");
            JsonNode loader = phase(results, "loader1-" + protocol + "-record");
            assertThat(loader.path("sent").asLong()).as(protocol).isPositive();
            assertThat(loader.path("outcomes").path("OK").asLong()).isEqualTo(loader.path("sent").asLong());
        }
        JsonNode titles = results.path("tables").findValues("title").stream().collect(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance::arrayNode,
                com.fasterxml.jackson.databind.node.ArrayNode::add, com.fasterxml.jackson.databind.node.ArrayNode::addAll);
        assertThat(titles.toString()).contains("Rate search for HTTP/1.1").contains("Rate search for h2c").contains("Probe latency under load");
        assertThat(table(results, "Probe latency under load").path("rows")).as("one headline row per protocol").hasSize(2);

        // Every JVM explained: a GC log per service and for the tool, each with its pauses, and the heap/thread plots.
        JsonNode jvms = table(results, "JVMs:").path("rows");
        assertThat(jvms).as("two services and the tool").hasSize(3);
        for (JsonNode row : jvms) {
            assertThat(row.get(3).asLong()).as("GC pauses of %s", row.get(0)).isGreaterThanOrEqualTo(0);
            assertThat(row.get(9).asLong()).as("samples of %s", row.get(0)).isPositive();
        }
        assertThat(folder.resolve("service-1-gc.log")).isNotEmptyFile();
        assertThat(folder.resolve("service-2-gc.log")).isNotEmptyFile();
        assertThat(folder.resolve("tool-gc.log")).isNotEmptyFile();
        assertThat(folder.resolve("jvm-heap.png")).isNotEmptyFile();
        assertThat(folder.resolve("jvm-threads.png")).isNotEmptyFile();
        // --profile: a flame graph of the warm-up and one of the recording, per service.
        assertThat(folder.resolve("service-1-record-flame.html")).content().contains("<html");
        assertThat(folder.resolve("service-2-record-flame.html")).content().contains("<html");

        // Where the probe's time goes: every probe request passed through each stage inside the tool.
        JsonNode sources = table(results, "Where the probe's time goes").path("rows");
        long probeSent = phase(results, "probe-http1-record").path("sent").asLong();
        for (JsonNode row : sources) {
            if (row.get(0).asText().equals("HTTP/1.1") && row.get(1).asText().startsWith("probe ")) {
                assertThat(row.get(2).asLong()).as("%s", row.get(1)).isEqualTo(probeSent);
            }
        }
        assertThat(sources.toString()).contains("sender lag").contains("client queue").contains("exchange").contains("tool GC pauses");

        // --cross-check: h2load beside the probe when it is installed, else a note that says how to get it.
        if (CrossCheck.h2load().isPresent()) {
            JsonNode rows = table(results, "Cross-check:").path("rows");
            assertThat(rows).as("probe and h2load per protocol").hasSize(4);
            assertThat(rows.get(1).get(1).asText()).isEqualTo("h2load");
            // 20 req/s for 3 s over one connection.
            assertThat(rows.get(1).get(3).asLong()).as("h2load 2xx").isBetween(30L, 80L);
            assertThat(folder.resolve("h2load-http1-record.tsv")).isNotEmptyFile();
        } else {
            assertThat(results.path("notes").toString()).contains("h2load is not on PATH");
        }
    }

    @Test
    void theProbeRunsInAJvmOfItsOwnWithProbeProcess(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "probe", "--path", "/work/blocking?ms=1", "--rate", "50", "--loaders", "1",
                "--probe-rate", "20", "--warmup", "1s", "--record", "3s", "--protocols", "HTTP1", "--probe-process",
                "--connections", "8", "--max-duration", "90s");
        JsonNode results = assertReportFiles(folder);

        JsonNode probe = phase(results, "probe-http1-record");
        assertThat(probe.path("sent").asLong()).isBetween(40L, 100L);
        assertThat(probe.path("outcomes").path("OK").asLong()).isEqualTo(probe.path("sent").asLong());
        assertThat(probe.path("latencyMs").path("min").asDouble()).isGreaterThanOrEqualTo(1.0);
        // The child wrote its phase and its own GC log; its pauses have their row.
        assertThat(folder.resolve("probe-http1-record.json")).isNotEmptyFile();
        assertThat(folder.resolve("probe-http1-record-gc.log")).isNotEmptyFile();
        assertThat(table(results, "Where the probe's time goes").path("rows").toString()).contains("probe JVM GC pauses");
        assertThat(table(results, "Probe latency under load").path("rows").get(0).get(10).asDouble()).as("server CPU").isPositive();
    }

    private static JsonNode table(JsonNode results, String titleStart) {
        for (JsonNode table : results.path("tables")) {
            if (table.path("title").asText().startsWith(titleStart)) {
                return table;
            }
        }
        throw new AssertionError("no table titled " + titleStart + "... in " + results.path("tables").findValues("title"));
    }
}
