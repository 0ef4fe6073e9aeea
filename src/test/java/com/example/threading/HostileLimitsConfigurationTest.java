package com.example.threading;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The knobs that bound what a hostile client can take (body-read deadline, publishes in progress, event streams and
 * what a slow reader may hold, the anti-patterns' thread caps) refuse to start with a message naming the key when set to a value that would remove the bound.
 */
class HostileLimitsConfigurationTest {

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
        "events.bodyReadTimeout          | 0s   | events.bodyReadTimeout must be greater than or equal to 1 MILLISECONDS",
        "events.bodyReadTimeout          | 10m  | events.bodyReadTimeout must be less than or equal to 5 MINUTES",
        "events.maxPublishing            | 0    | events.maxPublishing must be greater than or equal to 1",
        "sse.maxStreams           | 0    | sse.maxStreams must be greater than or equal to 1",
        "sse.maxUnsentBytes       | 1GiB | sse.maxUnsentBytes must be less than or equal to 64 MEBIBYTES",
        "sse.drainTimeout         | 1h   | sse.drainTimeout must be less than or equal to 10 MINUTES",
        "work.threadPerRequest.maxThreads | 0    | work.threadPerRequest.maxThreads must be greater than or equal to 1",
        "work.threadPerRequest.maxThreads | 20000 | work.threadPerRequest.maxThreads must be less than or equal to 10000",
        "client.commonMaxCalls           | 0    | client.commonMaxCalls must be greater than or equal to 1",
        "client.commonMaxCalls           | 1001 | client.commonMaxCalls must be less than or equal to 1000",
        "client.maxCallsInFlight         | 0    | client.maxCallsInFlight must be greater than or equal to 1",
        "client.maxCallsInFlight         | 129  | client.maxCallsInFlight must be at most client.maxThreads",
    })
    void aValueThatWouldRemoveTheBoundRefusesToStart(String key, String value, String message) {
        DropwizardTestSupport<ThreadingConfiguration> support = new DropwizardTestSupport<>(
                ThreadingApplication.class, "config.yml",
                ConfigOverride.randomPorts(),
                ConfigOverride.config("server.applicationConnectors[0].bindHost", "127.0.0.1"),
                ConfigOverride.config(key, value));

        // before() calls after() itself when start-up fails: nothing is left running.
        assertThatThrownBy(support::before).hasMessageContaining(message);
    }
}
