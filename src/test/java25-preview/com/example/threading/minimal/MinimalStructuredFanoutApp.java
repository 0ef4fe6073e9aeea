package com.example.threading.minimal;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.client.JerseyClientBuilder;
import io.dropwizard.client.JerseyClientConfiguration;
import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import java.net.URI;
import java.time.Duration;

/**
 * A copier's application for {@link MinimalStructuredFanout} (JDK 25 with preview features, so compiled apart from
 * the test that starts it): a Jersey client, the downstream's address, a deadline of one second and 4 places.
 */
public final class MinimalStructuredFanoutApp extends Application<MinimalStructuredFanoutApp.FanoutConfiguration> {

    /** Dropwizard's Jersey client section and the downstream's address. */
    public static final class FanoutConfiguration extends Configuration {
        @Valid
        @NotNull
        @JsonProperty
        private JerseyClientConfiguration client = new JerseyClientConfiguration();

        @NotNull
        @JsonProperty
        private URI downstream;
    }

    @Override
    public void run(FanoutConfiguration configuration, Environment environment) {
        environment.jersey().register(new MinimalStructuredFanout(new JerseyClientBuilder(environment)
                .using(configuration.client).build("minimal-structured").target(configuration.downstream),
                Duration.ofSeconds(1), 4));
    }
}
