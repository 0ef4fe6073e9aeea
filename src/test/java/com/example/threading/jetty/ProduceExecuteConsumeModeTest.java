package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code jetty.executionStrategy: produce-execute-consume}: no reserved threads, so every blocking request is handed to the pool. */
@ExtendWith(DropwizardExtensionsSupport.class)
class ProduceExecuteConsumeModeTest {

    static final DropwizardAppExtension<ThreadingConfiguration> APP = new DropwizardAppExtension<>(
            ThreadingApplication.class, "config.yml",
            ConfigOverride.randomPorts(),
            ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
            ConfigOverride.config("jetty.executionStrategy", "produce-execute-consume"));

    static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void aBurstOfBlockingRequestsIsHandedToThePoolAndNeverEatenByTheSelector() throws Exception {
        AdminMetrics metrics = HTTP.adminMetrics(APP.getAdminPort());
        long pecBefore = metrics.gauge("application", "strategy.pec");

        int ok = HTTP.burst(APP.getLocalPort(), 5, 20, 5);

        assertThat(ok).isEqualTo(100);
        // Each connection's first request needs the selector to dispatch it; later ones mostly do too.
        assertThat(metrics.gauge("application", "strategy.pec") - pecBefore).isGreaterThanOrEqualTo(20);
        assertThat(metrics.gauge("application", "strategy.epc")).isZero();
        assertThat(metrics.gauge("application", "strategy.epc-reproduced")).isZero();
        assertThat(metrics.gauge("application", "reserved-threads.configured")).isZero();
        assertThat(metrics.gauge("application", "reserved-threads.capacity")).isZero();
        assertThat(metrics.prometheus("jetty_connector_application_strategy_epc")).hasValue(0.0);
        // The admin connector has a pool of its own, which the switch leaves alone.
        assertThat(metrics.gauge("admin", "reserved-threads.configured")).isEqualTo(-1);
    }
}
