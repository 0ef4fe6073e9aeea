package com.example.threading.load.scenario.probe;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static com.example.threading.load.scenario.ReportAssertions.phase;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.engine.H2loadRequired;
import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
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
    void h2loadLoadersAndAProbeInItsOwnJvmRecordOverHttp1AndH2cWithTheServersCpu(@TempDir Path out) throws Exception {
        H2loadRequired.path();
        Path folder = ReportAssertions.run(out, "probe", "--path", "/work/blocking?ms=1", "--rate", "100", "--loaders", "2",
                "--probe-rate", "20", "--warmup", "1s", "--record", "3s", "--protocols", "HTTP1,H2C",
                "--find-rate", "--target-cpu", "50", "--search-step", "1s", "--search-steps", "2", "--max-duration", "120s", "--profile", "--cross-check");
        JsonNode results = assertReportFiles(folder);
        assertThat(folder.resolve("percentiles.png")).isNotEmptyFile();
        assertThat(folder.resolve("throughput.png")).isNotEmptyFile();
        assertThat(folder.resolve("latency.png")).isNotEmptyFile();
        assertThat(results.path("configuration").path("loader engine").asText()).startsWith("h2load");

        JsonNode headline = table(results, "Probe latency under load, beside the loaders'");
        assertThat(headline.path("header").toString()).contains("\"probe p99.9 ms\"", "\"loaders p99.9 ms\"", "\"server CPU %\"",
                "\"loaders CPU %\"", "\"probe JVM GC pauses (n / longest ms)\"");
        assertThat(headline.path("rows")).as("one row per protocol").hasSize(2);
        for (JsonNode row : headline.path("rows")) {
            assertThat(row.get(1).asText()).as("loaders").contains("2 × h2load");
            assertThat(row.get(4).asDouble()).as("server CPU").isPositive();
            assertThat(row.get(5).asText()).as("loaders' CPU").isNotEqualTo("–");
            assertThat(row.get(16).asText()).as("probe JVM GC pauses").doesNotStartWith("–");
        }
        for (String protocol : new String[] {"http1", "h2c"}) {
            JsonNode probe = phase(results, "probe-" + protocol + "-record");
            // 20 req/s for about 3 s, every one answered 2xx with at least the 1 ms of work.
            assertThat(probe.path("sent").asLong()).as(protocol).isBetween(40L, 100L);
            assertThat(probe.path("outcomes").path("OK").asLong()).as(protocol).isEqualTo(probe.path("sent").asLong());
            assertThat(probe.path("latencyMs").path("min").asDouble()).as(protocol).isGreaterThanOrEqualTo(1.0);
            assertThat(probe.path("protocol").asText()).isEqualTo(protocol.equals("h2c") ? "h2c" : "HTTP/1.1");
            assertThat(folder.resolve("probe-" + protocol + "-record.hlog")).isNotEmptyFile();
            String loaders = headline.path("rows").get(protocol.equals("h2c") ? 1 : 0).get(1).asText();
            String connections = loaders.replaceAll(".*h2load, (\\d+) connections each.*", "$1");
            for (String loaderName : new String[] {"loader1-" + protocol + "-record", "loader2-" + protocol + "-record"}) {
                JsonNode loader = phase(results, loaderName);
                assertThat(loader.path("sent").asLong()).as(loaderName).isPositive();
                assertThat(loader.path("outcomes").path("OK").asLong()).isEqualTo(loader.path("sent").asLong());
                // Each loader was an h2load process with the connections the report names, whose every logged request was counted.
                assertThat(Files.readString(folder.resolve(loaderName + ".txt"))).contains(connections + " total client(s)").contains("finished in");
                assertThat((long) Files.readAllLines(folder.resolve(loaderName + ".tsv")).size()).isEqualTo(loader.path("sent").asLong());
            }
            // The probe's own JVM, as it described itself: another process, with the chosen heap and collector.
            JsonNode jvm = results.path("data").path("probeJvms").path(protocol.equals("h2c") ? "h2c" : "HTTP/1.1");
            assertThat(jvm.path("pid").asLong()).isPositive().isNotEqualTo(ProcessHandle.current().pid());
            assertThat(jvm.path("arguments").toString()).contains("-Xmx64m").contains("-XX:+UseZGC");
            assertThat(jvm.path("collectors").toString()).contains("ZGC");
            assertThat(jvm.path("nice").asInt()).as("the default priority, where raising it is allowed").isEqualTo(root() ? -10 : 0);
            assertThat(folder.resolve("probe-" + protocol + "-gc.log")).content().contains("Using The Z Garbage Collector");
        }
        JsonNode titles = results.path("tables").findValues("title").stream().collect(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance::arrayNode,
                com.fasterxml.jackson.databind.node.ArrayNode::add, com.fasterxml.jackson.databind.node.ArrayNode::addAll);
        assertThat(titles.toString()).contains("Rate search for HTTP/1.1").contains("Rate search for h2c");

        // Every JVM explained: a GC log per service and for the tool, each with its pauses, and the heap/thread plots.
        JsonNode jvms = table(results, "JVMs:").path("rows");
        assertThat(jvms).as("two services and the tool").hasSize(3);
        for (JsonNode row : jvms) {
            assertThat(row.get(3).asLong()).as("GC pauses of %s", row.get(0)).isGreaterThanOrEqualTo(0);
            assertThat(row.get(9).asLong()).as("samples of %s", row.get(0)).isPositive();
        }
        assertThat(folder.resolve("service-1-gc.log")).isNotEmptyFile();
        assertThat(folder.resolve("service-2-gc.log")).isNotEmptyFile();
        // The tool's log is added to a running JVM, so it holds lines only if the tool collected during the run, which a
        // short run may not do (CI saw it empty once): GcLogTest shows that it records a pause when there is one.
        assertThat(folder.resolve("tool-gc.log")).exists();
        assertThat(folder.resolve("jvm-heap.png")).isNotEmptyFile();
        assertThat(folder.resolve("jvm-threads.png")).isNotEmptyFile();
        // --profile: a flame graph of the warm-up and one of the recording, per service.
        assertThat(folder.resolve("service-1-record-flame.html")).content().contains("<html");
        assertThat(folder.resolve("service-2-record-flame.html")).content().contains("<html");

        // Where the probe's time goes: every probe request passed through each stage inside the probe's JVM.
        JsonNode sources = table(results, "Where the probe's time goes").path("rows");
        long probeSent = phase(results, "probe-http1-record").path("sent").asLong();
        for (JsonNode row : sources) {
            if (row.get(0).asText().equals("HTTP/1.1") && row.get(1).asText().startsWith("probe ") && !row.get(1).asText().contains("GC")) {
                assertThat(row.get(2).asLong()).as("%s", row.get(1)).isEqualTo(probeSent);
            }
        }
        assertThat(sources.toString()).contains("sender lag").contains("client queue").contains("exchange").contains("tool GC pauses")
                .contains("probe JVM GC pauses");

        // --cross-check: h2load beside the probe.
        JsonNode rows = table(results, "Cross-check:").path("rows");
        assertThat(rows).as("probe and h2load per protocol").hasSize(4);
        assertThat(rows.get(1).get(1).asText()).isEqualTo("h2load");
        // 20 req/s for 3 s over one connection.
        assertThat(rows.get(1).get(3).asLong()).as("h2load 2xx").isBetween(30L, 80L);
        assertThat(folder.resolve("h2load-http1-record.tsv")).isNotEmptyFile();
    }

    @Test
    void javaLoadersAndAProbeInTheToolsJvmWhenAskedFor(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "probe", "--path", "/work/blocking?ms=1", "--rate", "50", "--loaders", "1",
                "--probe-rate", "20", "--warmup", "1s", "--record", "3s", "--protocols", "HTTP1", "--loader-engine", "JAVA",
                "--no-probe-process", "--connections", "8", "--max-duration", "90s");
        JsonNode results = assertReportFiles(folder);

        assertThat(results.path("configuration").path("loader engine").asText()).startsWith("Java");
        assertThat(results.path("configuration").path("probe process").asText()).isEqualTo("in the tool's JVM");
        JsonNode probe = phase(results, "probe-http1-record");
        assertThat(probe.path("sent").asLong()).isBetween(40L, 100L);
        assertThat(probe.path("outcomes").path("OK").asLong()).isEqualTo(probe.path("sent").asLong());
        assertThat(probe.path("serverCpuPercent").asDouble()).as("the in-tool probe samples the server").isPositive();
        assertThat(folder.resolve("loader1-http1-record.tsv")).as("no h2load log").doesNotExist();
        JsonNode row = table(results, "Probe latency under load, beside the loaders'").path("rows").get(0);
        assertThat(row.get(1).asText()).contains("Java");
        assertThat(row.get(16).asText()).startsWith("–");
        assertThat(table(results, "Where the probe's time goes").path("rows").toString()).contains("sender lag")
                .contains("tool GC pauses (the Java loaders' JVM)").doesNotContain("probe JVM GC pauses");
    }

    @Test
    void theProbesJvmRunsWithTheAskedOptions(@TempDir Path out) throws Exception {
        Path folder = ReportAssertions.run(out, "probe", "--path", "/work/blocking?ms=1", "--rate", "50", "--loaders", "1",
                "--probe-rate", "20", "--warmup", "1s", "--record", "3s", "--protocols", "HTTP1", "--loader-engine", "JAVA",
                "--probe-jvm-options", "-Xms32m -Xmx32m -XX:+UseSerialGC", "--probe-nice", "-5", "--connections", "8", "--max-duration", "90s");
        JsonNode results = assertReportFiles(folder);

        JsonNode jvm = results.path("data").path("probeJvms").path("HTTP/1.1");
        assertThat(jvm.path("pid").asLong()).isNotEqualTo(ProcessHandle.current().pid());
        assertThat(jvm.path("arguments").toString()).contains("-Xms32m").contains("-Xmx32m").contains("-XX:+UseSerialGC");
        assertThat(jvm.path("collectors").toString()).contains("Copy").contains("MarkSweepCompact");
        assertThat(jvm.path("maxHeapBytes").asLong()).isLessThanOrEqualTo(32L << 20);
        assertThat(jvm.path("nice").asInt()).as("the asked priority, where raising it is allowed").isEqualTo(root() ? -5 : 0);
        JsonNode probe = phase(results, "probe-http1-record");
        assertThat(probe.path("sent").asLong()).isBetween(40L, 100L);
        assertThat(probe.path("outcomes").path("OK").asLong()).isEqualTo(probe.path("sent").asLong());
        assertThat(probe.path("latencyMs").path("min").asDouble()).isGreaterThanOrEqualTo(1.0);
        // The child handed back its histogram log and its phase; its GC log has its pauses.
        assertThat(folder.resolve("probe-http1-record.hlog")).isNotEmptyFile();
        assertThat(folder.resolve("probe-http1-record.json")).isNotEmptyFile();
        assertThat(folder.resolve("probe-http1-gc.log")).content().contains("Using Serial");
        assertThat(table(results, "Where the probe's time goes").path("rows").toString()).contains("probe JVM GC pauses");
        assertThat(table(results, "Probe latency under load, beside the loaders'").path("rows").get(0).get(4).asDouble()).as("server CPU")
                .isPositive();
    }

    /** Whether this test runs as root (who alone may raise a process's scheduling priority). */
    private static boolean root() throws java.io.IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().filter(line -> line.startsWith("Uid:"))
                .anyMatch(line -> line.split("\\s+")[1].equals("0"));
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
