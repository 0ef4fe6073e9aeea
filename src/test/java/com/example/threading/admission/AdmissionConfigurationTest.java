package com.example.threading.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.threading.ThreadingApplication;
import com.example.threading.ThreadingConfiguration;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An invalid {@code admission} value stops start-up with a message naming the key, before any port is opened;
 * {@code enabled: false} starts without the handler and its metrics.
 */
class AdmissionConfigurationTest {

    @ParameterizedTest(name = "admission.{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "maxRequests  | 0      | admission.maxRequests must be greater than or equal to 1",
        "maxRequests  | -5     | admission.maxRequests must be greater than or equal to 1",
        "maxQueued    | -1     | admission.maxQueued must be greater than or equal to 0",
        "maxQueueTime | 0s     | admission.maxQueueTime must be greater than or equal to 1 MILLISECONDS",
        "maxQueueTime | 2m     | admission.maxQueueTime must be less than or equal to 60 SECONDS",
        "retryAfter   | 1500ms | retryAfter must be a whole number of seconds",
        "retryAfter   | 2h     | admission.retryAfter must be less than or equal to 1 HOURS",
        "enabled      | maybe  | admission.enabled",
    })
    void anInvalidValueRefusesToStart(String key, String value, String message) {
        DropwizardTestSupport<ThreadingConfiguration> support = new DropwizardTestSupport<>(
                ThreadingApplication.class, "config.yml",
                ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("admission." + key, value));

        // before() calls after() itself when start-up fails: nothing is left running.
        assertThatThrownBy(support::before).hasMessageContaining(message);
    }

    @Test
    void disabledMeansNoHandlerAndNoMetrics() throws Exception {
        DropwizardTestSupport<ThreadingConfiguration> support = new DropwizardTestSupport<>(
                ThreadingApplication.class, "config.yml",
                ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config("admission.enabled", "false"));
        support.before();
        try {
            assertThat(support.getEnvironment().metrics().getNames()).noneMatch(name -> name.startsWith("admission."));
            assertThat(support.getEnvironment().getApplicationContext().getDescendant(AdmissionHandler.class)).isNull();
        } finally {
            support.after();
        }
    }
}
