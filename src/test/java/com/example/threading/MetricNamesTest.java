package com.example.threading;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Every metric name, with every part of the service running (ticker on, as in config.yml), is free of the thread-name
 * format placeholders Dropwizard's executor builders are given ({@code events-ticker-%d} once became the metric
 * {@code events-ticker-%d.created}, and {@code events_ticker__d_…} in Prometheus; now a pool label).
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MetricNamesTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml", ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void noMetricNameCarriesAFormatPlaceholder() {
        AdminMetrics admin = new AdminMetrics(HTTP, APP.getAdminPort());
        JsonNode all = admin.metrics();
        List<String> names = new ArrayList<>();
        for (String type : List.of("gauges", "counters", "meters", "timers", "histograms")) {
            all.path(type).fieldNames().forEachRemaining(names::add);
        }
        assertThat(names).as("the executors' thread factories are there").contains("events-ticker.running",
                "events-dispatch.running", "work-cached.running", "work-bounded.running", "jersey-client-fanout.running");
        assertThat(names).allSatisfy(name -> assertThat(name).doesNotContain("%"));

        List<String> samples = admin.prometheusText().lines().filter(line -> !line.startsWith("#")).toList();
        assertThat(samples).anyMatch(line -> line.startsWith("executor_threads{pool=\"events-ticker\"}"));
        assertThat(samples).allSatisfy(line -> assertThat(line.split(" ", 2)[0]).doesNotContain("__d").doesNotContain("%"));
    }
}
