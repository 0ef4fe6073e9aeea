package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
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
    void aBurstOfBlockingRequestsIsConsumedByTheThreadThatProducedIt() throws Exception {
        AdminMetrics metrics = HTTP.adminMetrics(APP.getAdminPort());
        long epcBefore = metrics.gauge("application", "strategy.epc");

        int ok = HTTP.burst(APP.getLocalPort(), 5, 20, 5);

        assertThat(ok).isEqualTo(100);
        assertThat(metrics.gauge("application", "strategy.epc")).isGreaterThan(epcBefore);
        assertThat(metrics.gauge("application", "reserved-threads.configured")).isEqualTo(-1);
        assertThat(metrics.gauge("application", "reserved-threads.capacity")).isPositive();
        assertThat(metrics.gauge("application", "strategy.selectors")).isPositive();
    }

    @Test
    void everyConnectorsCountersAreOnMetricsAndPrometheus() throws Exception {
        HTTP.burst(APP.getLocalPort(), 1, 10, 1);
        AdminMetrics metrics = HTTP.adminMetrics(APP.getAdminPort());
        for (String connector : List.of("application", "admin")) {
            for (String counter : List.of("pc", "pic", "pec", "epc", "epc-reproduced")) {
                long json = metrics.gauge(connector, "strategy." + counter);
                String prometheusName = "jetty_connector_" + connector + "_strategy_" + counter.replace('-', '_');
                // Read after /metrics: counters only grow, so the scrape shows at least the JSON value.
                assertThat(metrics.prometheus(prometheusName)).as(prometheusName).isPresent();
                assertThat(metrics.prometheus(prometheusName).getAsDouble()).as(prometheusName).isGreaterThanOrEqualTo(json);
            }
            for (String gauge : List.of("strategy.selectors", "strategy.idle-selectors", "strategy.virtual-thread-selectors",
                    "reserved-threads.configured", "reserved-threads.capacity", "reserved-threads.available")) {
                metrics.gauge(connector, gauge);
                assertThat(metrics.prometheus("jetty_connector_" + connector + "_" + gauge.replace('-', '_').replace('.', '_')))
                        .as(gauge).isPresent();
            }
        }
        // The HTTP/1.1 requests above were read by the application selector: its tasks were counted somewhere.
        long applicationTasks = metrics.gauge("application", "strategy.pc") + metrics.gauge("application", "strategy.pic")
                + metrics.gauge("application", "strategy.pec") + metrics.gauge("application", "strategy.epc");
        assertThat(applicationTasks).isGreaterThanOrEqualTo(10);
    }
}
