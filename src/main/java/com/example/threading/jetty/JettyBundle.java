package com.example.threading.jetty;

import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.util.function.Function;

/**
 * Jetty's connector execution strategy (EatWhatYouKill) made visible and switchable, as one Dropwizard bundle: the
 * {@code jetty.executionStrategy} mode applied to the application pool before it starts, gauges
 * {@code jetty.connector.<name>.strategy.*} per connector, and the health check {@code jetty-thread-pool}.
 * <pre>{@code
 * bootstrap.addBundle(new JettyBundle<>(MyConfiguration::getJetty));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class JettyBundle<C extends Configuration> implements ConfiguredBundle<C> {

    private final Function<C, JettyConfiguration> section;

    /** The bundle, configured from the section {@code section} picks out of the application's configuration. */
    public JettyBundle(Function<C, JettyConfiguration> section) {
        this.section = section;
    }

    @Override
    public void run(C configuration, Environment environment) {
        ExecutionStrategies.register(environment, section.apply(configuration));
        HeaderFieldCache.register(environment, section.apply(configuration).isHeaderFieldCache());
        JettyThreadPoolHealthCheck.register(environment);
    }
}
