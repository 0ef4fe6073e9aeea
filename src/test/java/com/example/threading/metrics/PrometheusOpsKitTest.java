package com.example.threading.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The ops kit under deploy/prometheus is what Prometheus accepts: the scrape configuration and the alert rules pass
 * {@code promtool check}, and the rules' own tests ({@code alerts-test.yml}: each alert fires on the instance in trouble,
 * not on the healthy one, not before its {@code for}) pass {@code promtool test rules}.
 */
class PrometheusOpsKitTest {

    static final Path KIT = Path.of("deploy", "prometheus");

    @Test
    void theScrapeConfigurationAndItsRuleFileAreValid() {
        Promtool.Result check = Promtool.run("", "check", "config", KIT.resolve("prometheus.yml").toString());

        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 1 rule files found");
    }

    @Test
    void theAlertRulesAreValid() {
        Promtool.Result check = Promtool.run("", "check", "rules", KIT.resolve("alerts.yml").toString());

        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: 9 rules found");
    }

    @Test
    void theAlertRulesPassTheirTests() {
        Promtool.Result test = Promtool.run("", "test", "rules", KIT.resolve("alerts-test.yml").toString());

        assertThat(test.exitCode()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
    }
}
