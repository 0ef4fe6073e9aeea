package com.example.threading.load.scenario.cost;

import static com.example.threading.load.scenario.ReportAssertions.assertReportFiles;
import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.load.LoadTool;
import com.example.threading.load.engine.H2loadRequired;
import com.example.threading.load.scenario.ReportAssertions;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost scenario for real, with short stretches, against the service jar: a row per endpoint with the server's CPU
 * per request, /ping the baseline, the machine and the service's JDK in the report, and with --profile a CPU and an
 * allocation flame graph per loaded endpoint. No timing or ratio is asserted: CI runs on a busy 2-core machine.
 */
class CostScenarioTest {

    private static final List<String> ENDPOINTS = List.of("ping", "work-blocking", "work-thread-per-request", "work-cached",
            "work-bounded", "work-virtual", "events-publish", "events-publish-batch", "events-longpoll");

    @BeforeAll
    static void serviceJarIsBuilt() {
        ReportAssertions.requireServiceJar();
    }

    @Test
    void everyEndpointGetsTheServersCpuPerRequestAsARatioToPingWithFlameGraphs(@TempDir Path out) throws Exception {
        H2loadRequired.path();
        Path folder = ReportAssertions.run(out, "cost", "--warmup", "1s", "--seconds", "2s", "--polls", "50", "--profile",
                "--batch-polls", "100", "--batch-streams", "30", "--batch-warmup", "1", "--batch-rounds", "2", "--max-duration", "300s");
        JsonNode results = assertReportFiles(folder);
        String markdown = Files.readString(folder.resolve("report.md"));

        JsonNode table = table(results, CostView.TITLE);
        assertThat(table.path("header").toString()).contains("\"requests/s\"", "\"server CPU µs per request\"", "\"ratio to /ping\"",
                "\"server CPU %\"");
        JsonNode rows = table.path("rows");
        assertThat(rows).as("one row per endpoint").hasSize(ENDPOINTS.size());
        List<String> labels = new ArrayList<>();
        rows.forEach(row -> labels.add(row.get(0).asText()));
        assertThat(labels.get(0)).contains("/ping");
        assertThat(String.join(" ", labels)).contains("/work/blocking?ms=0", "/work/thread-per-request?ms=0", "/work/cached?ms=0",
                "/work/bounded?ms=0", "/work/virtual?ms=0", "POST /events?topic=cost-publish", "POST /events/batch (10 events of",
                "GET /events?topic=cost&timeout=");
        assertThat(rows.get(0).get(3).asText()).as("/ping's ratio to itself").isEqualTo("1.00");

        JsonNode costs = results.path("data").path("cost");
        assertThat(costs).hasSize(ENDPOINTS.size());
        for (int i = 0; i < ENDPOINTS.size(); i++) {
            JsonNode cost = costs.get(i);
            JsonNode row = rows.get(i);
            assertThat(cost.path("name").asText()).isEqualTo(ENDPOINTS.get(i));
            if (cost.path("name").asText().equals("work-virtual") && !ReportAssertions.virtualThreads()) {
                assertThat(row.get(2).asText()).isEqualTo("not available on JDK " + Runtime.version().feature() + " (needs 21+)");
                assertThat(cost.path("serverCpuMicrosPerRequest").isNull()).isTrue();
                continue;
            }
            assertThat(cost.path("outcome").asText()).as("%s", cost.path("name")).isEqualTo("measured");
            assertThat(Double.parseDouble(row.get(1).asText())).as("requests/s of %s", cost.path("name")).isPositive();
            assertThat(Double.parseDouble(row.get(2).asText())).as("CPU µs per request of %s", cost.path("name")).isPositive();
            assertThat(Double.parseDouble(row.get(4).asText())).as("server CPU %% of %s", cost.path("name")).isPositive();
            assertThat(cost.path("serverCpuMicrosPerRequest").asDouble()).isPositive();
            assertThat(cost.path("answers2xx").asLong()).isPositive();
            assertThat(cost.path("non2xx").asLong()).isZero();
            assertThat(cost.path("ratioToPing").asDouble()).isPositive();
            // Every flame graph of the extra stretches, linked from report.md.
            for (String event : List.of("cpu", "alloc")) {
                String file = "flame-" + event + "-" + cost.path("name").asText() + ".html";
                assertThat(folder.resolve(file)).content().contains("<html");
                assertThat(markdown).contains("(" + file + ")");
            }
        }
        assertThat(costs.get(0).path("ratioToPing").asDouble()).isEqualTo(1.0);

        // The publish is h2load's POST of a JSON body; the long poll's figure says which publishes it includes.
        JsonNode publish = costs.get(ENDPOINTS.indexOf("events-publish"));
        assertThat(publish.path("command").toString()).contains("\"-d\"", "\"Content-Type: application/json\"");
        JsonNode batch = costs.get(ENDPOINTS.indexOf("events-publish-batch"));
        assertThat(batch.path("command").toString()).contains("\"-d\"", "publish-batch-body.json");
        assertThat(folder.resolve("publish-batch-body.json")).content().startsWith("[{\"topic\":\"cost-publish\",\"data\":{");
        JsonNode longPoll = costs.get(ENDPOINTS.indexOf("events-longpoll"));
        assertThat(longPoll.path("command").toString()).contains("\"-c\",\"50\"");
        assertThat(longPoll.path("publishes").asLong()).isPositive();
        assertThat(results.path("notes").toString()).contains("its server CPU includes the " + longPoll.path("publishes").asLong() + " publishes");

        // One event to many waiting clients: a row per shape, each measured in its rounds, with its ratio to /ping.
        JsonNode batches = table(results, CostView.BATCH_TITLE).path("rows");
        assertThat(batches).hasSize(3);
        assertThat(batches.get(0).get(0).asText()).isEqualTo("one event to 100 parked long-polls (GET /events)");
        assertThat(batches.get(1).get(0).asText()).isEqualTo("one event to 30 SSE streams (GET /events/stream)");
        assertThat(batches.get(2).get(0).asText()).isEqualTo("one event to 30 WebSockets (GET /events/ws)");
        JsonNode batchCosts = results.path("data").path(CostView.BATCH_DATA);
        assertThat(batchCosts).hasSize(3);
        batchCosts.forEach(row -> {
            assertThat(row.path("outcome").asText()).as("%s", row.path("name")).isEqualTo("measured");
            assertThat(row.path("rounds").asInt()).isEqualTo(2);
            assertThat(row.path("serverCpuMicrosPerAnswer").asDouble()).isPositive();
            assertThat(row.path("lastReceiptMs").asDouble()).isPositive();
        });
        batches.forEach(row -> assertThat(Double.parseDouble(row.get(4).asText())).as("ratio to /ping of %s", row.get(0)).isPositive());

        // The machine, its load and the service's JDK, in report.md and results.json.
        JsonNode environment = results.path("environment");
        assertThat(environment.path("cpu").asText()).isNotBlank().isNotEqualTo(System.getProperty("os.arch"));
        assertThat(environment.path("cores").asInt()).isPositive();
        assertThat(environment.path("service JDK").asText()).contains(Integer.toString(Runtime.version().feature()));
        assertThat(environment.path("load generator").asText()).startsWith("h2load");
        assertThat(markdown).contains("| cpu |", "| service JDK |", "| load average at start (1 / 5 / 15 min) |",
                "ratios within one run", "this machine only", "java -jar load/target/threading-load.jar cost");
    }

    @Test
    void withABaselineEveryEndpointAndBatchIsMeasuredOnBothServicesAndTheRatiosStandSideBySide(@TempDir Path out) throws Exception {
        H2loadRequired.path();
        Path jar = Path.of("..", "target", "threading-reference.jar").toAbsolutePath().normalize();
        Path folder = ReportAssertions.run(out, "cost", "--baseline", jar.toString(), "--warmup", "0s", "--seconds", "1s", "--polls", "20",
                "--batch-polls", "50", "--batch-streams", "0", "--batch-warmup", "0", "--batch-rounds", "2", "--max-duration", "400s");
        JsonNode results = assertReportFiles(folder);

        JsonNode side = table(results, CostView.BASELINE_TITLE);
        assertThat(side.path("header").toString()).contains("\"ratio to /ping, this\"", "\"ratio to /ping, baseline\"",
                "\"this over baseline\"");
        assertThat(side.path("rows")).as("every endpoint and the batch row").hasSize(ENDPOINTS.size() + 1);
        assertThat(side.path("rows").get(0).get(5).asText()).as("/ping over /ping").isEqualTo("1.00");
        JsonNode comparisons = results.path("data").path(CostView.AB_DATA);
        assertThat(comparisons).hasSize(ENDPOINTS.size() + 1);
        assertThat(comparisons.get(ENDPOINTS.size()).path("name").asText()).isEqualTo("events-batch-polls-50");
        assertThat(comparisons.get(ENDPOINTS.size()).path("thisOverBaseline").asDouble()).isPositive();
        assertThat(results.path("data").path(CostView.DATA_OF_BASELINE)).hasSize(ENDPOINTS.size());
        assertThat(results.path("data").path(CostView.BATCH_DATA_OF_BASELINE)).hasSize(1);
        assertThat(results.path("environment").path("baseline service").asText()).contains("threading-reference.jar");
        assertThat(results.path("configuration").path("baseline").asText()).contains("threading-reference.jar");
    }

    @Test
    void withCompareRequestLogEveryEndpointIsMeasuredOnALoggedServiceThenOnAnUnloggedOneSideBySide(@TempDir Path out) throws Exception {
        H2loadRequired.path();
        Path folder = ReportAssertions.run(out, "cost", "--compare-request-log", "--warmup", "0s", "--seconds", "1s", "--polls", "20",
                "--max-duration", "300s");
        JsonNode results = assertReportFiles(folder);

        JsonNode side = table(results, CostView.REQUEST_LOG_TITLE);
        assertThat(side.path("header").toString()).contains("\"ratio to /ping, log on\"", "\"ratio to /ping, log off\"",
                "\"the log's µs per request\"");
        assertThat(side.path("rows")).hasSize(ENDPOINTS.size());
        assertThat(side.path("rows").get(0).get(1).asText()).isEqualTo("1.00");
        assertThat(side.path("rows").get(0).get(2).asText()).isEqualTo("1.00");
        JsonNode data = results.path("data");
        assertThat(data.path("cost")).hasSize(ENDPOINTS.size());
        assertThat(data.path("costWithoutRequestLog")).hasSize(ENDPOINTS.size());
        assertThat(data.path("requestLogCost")).as("every endpoint measured on both (virtual: on JDK 21+)")
                .hasSize(ReportAssertions.virtualThreads() ? ENDPOINTS.size() : ENDPOINTS.size() - 1);
        data.path("requestLogCost").forEach(cost -> {
            assertThat(cost.path("microsWithLog").asDouble()).as("%s", cost.path("name")).isPositive();
            assertThat(cost.path("microsWithoutLog").asDouble()).as("%s", cost.path("name")).isPositive();
        });
        assertThat(results.path("configuration").toString()).contains("on, then off on a second service");

        // The first service wrote a request log line per request, the second none: its config.yml had no appender.
        assertThat(folder.resolve("config-without-request-log.yml")).content().contains("appenders: []");
        assertThat(Files.readString(folder.resolve("service-1.log"))).contains("\"GET /work/blocking HTTP/1.1\" 200 ");
        assertThat(Files.readString(folder.resolve("service-2.log"))).doesNotContain("request_id=")
                .doesNotContain("\"GET /work/blocking HTTP/1.1\"");
    }

    @Test
    void compareRequestLogRefusesWhatCannotBeComparedBeforeStartingAnything(@TempDir Path out) throws Exception {
        for (List<String> options : List.of(List.of("--profile"), List.of("--request-log", "off"))) {
            List<String> args = new ArrayList<>(List.of("cost", "--out", out.toString(), "--no-progress", "--compare-request-log"));
            args.addAll(options);
            ByteArrayOutputStream errors = new ByteArrayOutputStream();
            PrintStream standardError = System.err;
            int status;
            System.setErr(new PrintStream(errors, true, StandardCharsets.UTF_8));
            try {
                status = LoadTool.run(args.toArray(String[]::new));
            } finally {
                System.setErr(standardError);
            }
            assertThat(status).as("exit status with %s", options).isNotZero();
            assertThat(errors.toString(StandardCharsets.UTF_8)).as("%s", options).contains("--compare-request-log starts the service twice");
        }
        try (Stream<Path> started = Files.walk(out)) {
            assertThat(started.filter(file -> file.getFileName().toString().startsWith("service-"))).as("no service started").isEmpty();
        }
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
