package com.example.threading.jetty;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.configuration.ConfigurationParsingException;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import org.junit.jupiter.api.Test;

/** A mistyped {@code jetty.executionStrategy} stops start-up and names the accepted values, rather than running in some mode. */
class ExecutionStrategyConfigurationTest {

    @Test
    void anUnknownModeFailsStartUpNamingTheValidOnes() {
        DropwizardTestSupport<ThreadingConfiguration> support = new DropwizardTestSupport<>(
                ThreadingApplication.class, "config.yml",
                ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("jetty.executionStrategy", "eat-everything"));

        // before() calls after() itself when start-up fails: nothing is left running or set.
        assertThatThrownBy(support::before)
                .isInstanceOf(ConfigurationParsingException.class)
                .hasMessageContaining("jetty.executionStrategy")
                .rootCause().hasMessageContaining("ADAPTIVE").hasMessageContaining("PRODUCE_EXECUTE_CONSUME");
    }
}
