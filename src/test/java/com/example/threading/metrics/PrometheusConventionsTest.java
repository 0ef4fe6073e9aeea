package com.example.threading.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /prometheus} of a running service (as {@code java -jar}: JVM metrics too), after a little of every pattern's
 * traffic, follows Prometheus conventions as {@code promtool check metrics} reads them, carries every Dropwizard metric
 * under the name and labels {@link NameMapping} gives it, and shows latencies only as histograms.
 */
class PrometheusConventionsTest {

    static final LoopbackHttp HTTP = new LoopbackHttp();
    static LiveInstance service;

    @BeforeAll
    static void startAndLoad() throws IOException {
        Promtool.binary("promtool");
        service = LiveInstance.start("prometheus-conventions", HTTP);
        ServiceTraffic.everyPattern(HTTP, service);
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        HTTP.close();
    }

    @Test
    void promtoolFindsNothingToComplainAbout() {
        String scrape = scrape();

        Promtool.Result check = Promtool.run(scrape, "check", "metrics");

        assertThat(check.output()).as("promtool check metrics").isBlank();
        assertThat(check.exitCode()).isZero();
    }

    @Test
    void everyDropwizardMetricIsExportedUnderItsMappedNameAndLabels() {
        JsonNode all = HTTP.get(service.adminUrl("/metrics")).json();
        List<String> samples = scrape().lines().filter(line -> !line.startsWith("#")).toList();
        List<String> missing = new ArrayList<>();
        Map<String, String> suffixes = Map.of("meters", "_total", "timers", "_count", "histograms", "_count");
        for (String type : List.of("gauges", "counters", "meters", "timers", "histograms")) {
            all.path(type).fieldNames().forEachRemaining(name -> {
                MappedName mapped = NameMapping.map(name);
                if (mapped.kind() == ExportKind.SKIP) {
                    return;
                }
                String sample = mapped.family() + switch (mapped.kind()) {
                    case COUNTER -> "_total";
                    case INFO -> "_info";
                    case GAUGE -> "";
                    default -> suffixes.getOrDefault(type, "");
                };
                List<String> labels = new ArrayList<>();
                for (int i = 0; i < mapped.labelNames().size(); i++) {
                    labels.add(mapped.labelNames().get(i) + "=\"" + mapped.labelValues().get(i) + "\"");
                }
                boolean found = samples.stream().anyMatch(line -> (line.startsWith(sample + " ") || line.startsWith(sample + "{"))
                        && labels.stream().allMatch(line::contains));
                if (!found) {
                    missing.add(name + " -> " + sample + labels);
                }
            });
        }
        assertThat(missing).as("Dropwizard metrics without their series on /prometheus").isEmpty();
        assertThat(samples).as("every pattern's metrics were there").hasSizeGreaterThan(500);
    }

    @Test
    void latenciesAreHistogramsWithBucketsFromAMillisecondToAMinuteAndNothingIsASummary() {
        String scrape = scrape();

        assertThat(scrape).doesNotContain("quantile=");
        for (String pattern : List.of("blocking", "thread-per-request", "cached", "bounded")) {
            assertThat(scrape).contains("work_request_duration_seconds_bucket{pattern=\"" + pattern + "\",le=\"0.001\"}",
                    "work_request_duration_seconds_bucket{pattern=\"" + pattern + "\",le=\"60.0\"}");
        }
        assertThat(scrape).contains("# TYPE work_request_duration_seconds histogram", "# TYPE events_batch_size histogram",
                "# TYPE fanout_duration_seconds histogram", "# TYPE executor_task_duration_seconds histogram");
        assertThat(scrape).containsPattern("executor_threads\\{pool=\"work-cached\"} [1-9]");
    }

    private static String scrape() {
        LoopbackHttp.Answer answer = HTTP.get(service.adminUrl(PrometheusBundle.PATH));
        assertThat(answer.status()).isEqualTo(200);
        return answer.body();
    }
}
