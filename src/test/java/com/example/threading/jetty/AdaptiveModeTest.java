package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import com.example.threading.testing.AdminMetrics;
import com.example.threading.testing.LoopbackHttp;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Default mode: the application connector's selectors run AdaptiveExecutionStrategy with reserved threads, so requests run EPC. */
@ExtendWith(DropwizardExtensionsSupport.class)
class AdaptiveModeTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aBurstOfBlockingRequestsIsConsumedByTheThreadThatProducedIt() {
        AdminMetrics metrics = new AdminMetrics(HTTP, APP.getAdminPort());
        long epcBefore = strategy(metrics, "application", "strategy.epc");

        List<LoopbackHttp.Answer> answers = HTTP.waves(blockingUrl(5), 5, 20);

        assertThat(answers).hasSize(100).extracting(LoopbackHttp.Answer::status).containsOnly(200);
        assertThat(strategy(metrics, "application", "strategy.epc")).isGreaterThan(epcBefore);
        assertThat(strategy(metrics, "application", "reserved-threads.configured")).isEqualTo(-1);
        assertThat(strategy(metrics, "application", "reserved-threads.capacity")).isPositive();
        assertThat(strategy(metrics, "application", "strategy.selectors")).isPositive();
    }

    @Test
    void everyConnectorsCountersAreOnMetricsAndPrometheus() {
        AdminMetrics metrics = new AdminMetrics(HTTP, APP.getAdminPort());
        long applicationTasksBefore = applicationTasks(metrics);
        HTTP.getAll(blockingUrl(1), 10);
        for (String connector : List.of("application", "admin")) {
            for (String counter : List.of("pc", "pic", "pec", "epc", "epc-reproduced")) {
                long json = strategy(metrics, connector, "strategy." + counter);
                String prometheusName = counter.equals("epc-reproduced")
                        ? "jetty_strategy_epc_reproduced_total{connector=\"" + connector + "\"}"
                        : "jetty_strategy_tasks_total{connector=\"" + connector + "\",mode=\"" + counter + "\"}";
                // Read after /metrics: counters only grow, so the scrape shows at least the JSON value.
                assertThat(metrics.prometheus(prometheusName)).as(prometheusName).isPresent();
                assertThat(metrics.prometheus(prometheusName).getAsDouble()).as(prometheusName).isGreaterThanOrEqualTo(json);
            }
            for (String gauge : List.of("strategy.selectors", "strategy.idle-selectors", "strategy.virtual-thread-selectors",
                    "reserved-threads.configured", "reserved-threads.capacity", "reserved-threads.available")) {
                strategy(metrics, connector, gauge);
                String family = "jetty_" + gauge.replace("strategy.", "").replace('-', '_').replace('.', '_');
                assertThat(metrics.prometheus(family + "{connector=\"" + connector + "\"}"))
                        .as(gauge).isPresent();
            }
        }
        // The HTTP/1.1 requests above were read by the application selector: its tasks were counted somewhere. Not one task
        // per request: a kept-alive connection's task may read the next request itself (a clean-clone CI run saw 9 for 10).
        assertThat(applicationTasks(metrics)).isGreaterThan(applicationTasksBefore);
    }

    /** Tasks the application connector's strategy has run so far, in any mode. */
    private static long applicationTasks(AdminMetrics metrics) {
        return strategy(metrics, "application", "strategy.pc") + strategy(metrics, "application", "strategy.pic")
                + strategy(metrics, "application", "strategy.pec") + strategy(metrics, "application", "strategy.epc");
    }

    /** {@code /work/blocking?ms=<ms>}: each request holds the Jetty thread that runs it for {@code ms}. */
    private static String blockingUrl(int ms) {
        return LoopbackHttp.url(APP.getLocalPort(), "/work/blocking?ms=" + ms);
    }

    private static long strategy(AdminMetrics metrics, String connector, String gauge) {
        return metrics.gauge(ExecutionStrategies.METRIC_PREFIX + "." + connector + "." + gauge);
    }
}
