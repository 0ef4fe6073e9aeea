package com.example.threading.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.Await;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ops kit's queries answer on a real Prometheus server scraping a running, loaded instance: every expression of
 * deploy/prometheus/grafana/dashboard.json returns at least one series with a number (not NaN: a quantile with no
 * observations in its window is NaN), and every metric the alert rules name exists (the Redis stream's only with
 * Redis). Grafana's variables are replaced as Grafana would: {@code $instance} by all instances, the rate interval by
 * 30 s (the test scrapes every second).
 */
class DashboardQueriesTest {

    static final Path DASHBOARD = Path.of("deploy", "prometheus", "grafana", "dashboard.json");
    static final Path ALERTS = Path.of("deploy", "prometheus", "alerts.yml");
    static final LoopbackHttp HTTP = new LoopbackHttp();

    @TempDir
    static Path prometheusDirectory;
    static LiveInstance service;
    static PrometheusServer prometheus;

    @BeforeAll
    static void startLoadAndScrape() throws IOException, InterruptedException {
        Promtool.binary("prometheus");
        service = LiveInstance.start("dashboard-queries", HTTP);
        prometheus = PrometheusServer.start(service.adminTarget(), prometheusDirectory, HTTP);
        // Traffic spread over several scrapes, so that every rate and quantile of the last 30 s has data.
        for (int round = 0; round < 6; round++) {
            ServiceTraffic.everyPattern(HTTP, service);
            Thread.sleep(1000);
        }
        Await.until(() -> prometheus.query("count_over_time(up{job=\"threading-reference\"}[30s]) >= 8").size() == 1,
                Duration.ofSeconds(60), "8 scrapes of the instance");
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) {
            prometheus.close();
        }
        if (service != null) {
            service.close();
        }
        HTTP.close();
    }

    @Test
    void theInstanceIsUpAndEveryDashboardExpressionReturnsANumber() throws IOException {
        assertThat(prometheus.query("up{job=\"threading-reference\"}").path(0).path("value").path(1).asText()).isEqualTo("1");
        List<String> expressions = dashboardExpressions();
        assertThat(expressions).hasSizeGreaterThanOrEqualTo(30);

        List<String> empty = new ArrayList<>();
        for (String expression : expressions) {
            String query = expression.replace("$__rate_interval", "30s").replace("$instance", ".+");
            boolean anyNumber = false;
            for (JsonNode series : prometheus.query(query)) {
                String value = series.path("value").path(1).asText();
                anyNumber |= !value.equals("NaN") && !value.isEmpty();
            }
            if (!anyNumber) {
                empty.add(query);
            }
        }
        assertThat(empty).as("dashboard expressions without a number").isEmpty();
    }

    @Test
    void everyMetricTheAlertsNameExists() throws IOException {
        Set<String> names = new LinkedHashSet<>();
        Pattern metricName = Pattern.compile("[a-z][a-z0-9]*(?:_[a-z0-9]+)+"); // PromQL's labels here have no underscore
        for (JsonNode group : new ObjectMapper(new YAMLFactory()).readTree(ALERTS.toFile()).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                Matcher metric = metricName.matcher(rule.path("expr").asText());
                while (metric.find()) {
                    names.add(metric.group());
                }
            }
        }
        assertThat(names).contains("admission_rejected_total", "events_max_parked", "executor_pool_max_threads",
                "jetty_threads_busy_of_max_ratio", "jvm_gc_collection_seconds_total");

        List<String> missing = new ArrayList<>();
        for (String name : names) {
            if (!name.startsWith("events_redis_") && prometheus.query("count({__name__=\"" + name + "\"})").isEmpty()) {
                missing.add(name);
            }
        }
        assertThat(missing).as("metrics the alerts use that the instance does not export").isEmpty();
    }

    private static List<String> dashboardExpressions() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                expressions.add(target.path("expr").asText());
            }
        }
        return expressions;
    }
}
