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
    void aBurstOfBlockingRequestsIsHandedToThePoolAndNeverEatenByTheSelector() {
        AdminMetrics metrics = new AdminMetrics(HTTP, APP.getAdminPort());
        long pecBefore = strategy(metrics, "application", "strategy.pec");

        List<LoopbackHttp.Answer> answers = HTTP.waves(blockingUrl(5), 5, 20);

        assertThat(answers).hasSize(100).extracting(LoopbackHttp.Answer::status).containsOnly(200);
        // Each connection's first request needs the selector to dispatch it; later ones mostly do too.
        assertThat(strategy(metrics, "application", "strategy.pec") - pecBefore).isGreaterThanOrEqualTo(20);
        assertThat(strategy(metrics, "application", "strategy.epc")).isZero();
        assertThat(strategy(metrics, "application", "strategy.epc-reproduced")).isZero();
        assertThat(strategy(metrics, "application", "reserved-threads.configured")).isZero();
        assertThat(strategy(metrics, "application", "reserved-threads.capacity")).isZero();
        assertThat(metrics.prometheus("jetty_strategy_tasks_total{connector=\"application\",mode=\"epc\"}")).hasValue(0.0);
        // The admin connector has a pool of its own, which the switch leaves alone.
        assertThat(strategy(metrics, "admin", "reserved-threads.configured")).isEqualTo(-1);
    }

    /** {@code /work/blocking?ms=<ms>}: each request holds the Jetty thread that runs it for {@code ms}. */
    private static String blockingUrl(int ms) {
        return LoopbackHttp.url(APP.getLocalPort(), "/work/blocking?ms=" + ms);
    }

    private static long strategy(AdminMetrics metrics, String connector, String gauge) {
        return metrics.gauge(ExecutionStrategies.METRIC_PREFIX + "." + connector + "." + gauge);
    }
}
