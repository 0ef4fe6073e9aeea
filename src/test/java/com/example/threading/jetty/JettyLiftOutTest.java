package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.threading.testing.LiftOut;
import com.example.threading.testing.LoopbackHttp;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.ResourceHelpers;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The execution-strategy pattern copied alone: a bare Dropwizard application whose only addition is {@link JettyBundle},
 * switched to produce-execute-consume: the application pool reserves no thread, the admin pool keeps its own, the
 * gauges and the health check come with the bundle.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JettyLiftOutTest {

    /** A copier's configuration: Dropwizard's, plus the one section. */
    public static final class LiftedConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private JettyConfiguration jetty = new JettyConfiguration();

        JettyConfiguration getJetty() {
            return jetty;
        }
    }

    /** A copier's application: one addBundle line. */
    public static final class LiftedApplication extends Application<LiftedConfiguration> {
        @Override
        public void initialize(Bootstrap<LiftedConfiguration> bootstrap) {
            bootstrap.addBundle(new JettyBundle<>(LiftedConfiguration::getJetty));
        }

        @Override
        public void run(LiftedConfiguration configuration, Environment environment) {
        }
    }

    private static final DropwizardAppExtension<LiftedConfiguration> APP = new DropwizardAppExtension<>(
            LiftedApplication.class, ResourceHelpers.resourceFilePath(LiftOut.CONFIG),
            ConfigOverride.config("jetty.executionStrategy", "produce-execute-consume"));
    private static final LoopbackHttp HTTP = new LoopbackHttp();

    @AfterAll
    static void closeClient() {
        HTTP.close();
    }

    @Test
    void theModeGaugesAndHealthCheckComeWithTheBundle() {
        HTTP.get(LoopbackHttp.url(APP.getLocalPort(), "/nothing-here")); // a request through the connector

        assertThat(gauge("application.reserved-threads.configured")).isZero();
        assertThat(gauge("admin.reserved-threads.configured")).isEqualTo(-1);
        assertThat(gauge("application.strategy.epc")).isZero();
        assertThat(APP.getEnvironment().healthChecks().runHealthCheck("jetty-thread-pool").isHealthy()).isTrue();
    }

    private static long gauge(String name) {
        return ((Number) APP.getEnvironment().metrics().getGauges()
                .get(ExecutionStrategies.METRIC_PREFIX + "." + name).getValue()).longValue();
    }
}
