package com.example.threading.minimal;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.Gauge;
import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.dropwizard.testing.ResourceHelpers;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import java.util.List;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MinimalExecutionStrategy} in a bare Dropwizard application, a fresh one per test: with 0 reserved threads
 * (set before the pool started, else Jetty would have refused) every blocking request is handed to the pool (PEC,
 * never EPC); with Jetty's heuristic (-1) requests are eaten by the thread that read them (EPC). Both read on the
 * gauges the listing registers.
 */
class MinimalExecutionStrategyTest {

    /** A copier's configuration: the reserved threads of the application pool. */
    public static final class StrategyConfiguration extends Configuration {
        @JsonProperty
        private int reservedThreads = -1;
    }

    /** A copier's application: the listing's one line, and an endpoint that blocks its thread a moment. */
    public static final class App extends Application<StrategyConfiguration> {
        @Override
        public void run(StrategyConfiguration configuration, Environment environment) {
            new MinimalExecutionStrategy(configuration.reservedThreads, environment.metrics()).register(environment);
            environment.jersey().register(new Blocking());
        }
    }

    /** GET /blocking: holds its Jetty thread for 5 ms. */
    @Path("/blocking")
    public static final class Blocking {
        /** Sleeps 5 ms on the request's thread. */
        @GET
        public String block() throws InterruptedException {
            Thread.sleep(5);
            return "ok";
        }
    }

    private static final LoopbackHttp HTTP = new LoopbackHttp();

    private DropwizardTestSupport<StrategyConfiguration> app;

    @AfterEach
    void stop() {
        app.after();
    }

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void noReservedThreadsHandsEveryBlockingRequestToThePool() throws Exception {
        start(0);
        long pecBefore = gauge("application", "pec");

        List<LoopbackHttp.Answer> answers = HTTP.waves(LoopbackHttp.url(app.getLocalPort(), "/blocking"), 5, 20);

        assertThat(answers).extracting(LoopbackHttp.Answer::status).containsOnly(200);
        assertThat(((QueuedThreadPool) app.getEnvironment().getApplicationContext().getServer().getThreadPool())
                .getReservedThreads()).isZero();
        assertThat(gauge("application", "pec") - pecBefore).isGreaterThanOrEqualTo(20);
        assertThat(gauge("application", "epc")).isZero();
        assertThat(app.getEnvironment().metrics().getGauges().keySet()).as("every connector's four modes")
                .contains("minimal.admin.pc", "minimal.admin.pic", "minimal.admin.pec", "minimal.admin.epc",
                        "minimal.application.pc", "minimal.application.pic");
    }

    @Test
    void jettysHeuristicLetsTheThreadThatReadARequestRunIt() throws Exception {
        start(-1);
        long epcBefore = gauge("application", "epc");

        for (int i = 0; i < 20; i++) {
            assertThat(HTTP.get(LoopbackHttp.url(app.getLocalPort(), "/blocking")).status()).isEqualTo(200);
        }

        assertThat(gauge("application", "epc")).isGreaterThan(epcBefore);
    }

    private void start(int reservedThreads) throws Exception {
        app = new DropwizardTestSupport<>(App.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
                ConfigOverride.config("reservedThreads", Integer.toString(reservedThreads)));
        app.before();
    }

    private long gauge(String connector, String mode) {
        Gauge<?> gauge = app.getEnvironment().metrics().getGauges().get("minimal." + connector + "." + mode);
        assertThat(gauge).as("gauge minimal.%s.%s", connector, mode).isNotNull();
        return (Long) gauge.getValue();
    }
}
