package com.example.threading.jetty.virtual;

import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.util.function.Function;

/**
 * Every request of the application connector on a virtual thread, at most {@code maxConcurrent} at once, as one
 * Dropwizard bundle ({@link ServerVirtualThreads}). Add it before the bundles that build pools: with the switch on
 * below JDK 21 it refuses to start, and it should do so before anything else has started threads.
 * <pre>{@code
 * bootstrap.addBundle(new ServerVirtualThreadsBundle<>(MyConfiguration::getServerVirtualThreads));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class ServerVirtualThreadsBundle<C extends Configuration> implements ConfiguredBundle<C> {

    private final Function<C, ServerVirtualThreadsConfiguration> section;

    /** The bundle, configured from the section {@code section} picks out of the application's configuration. */
    public ServerVirtualThreadsBundle(Function<C, ServerVirtualThreadsConfiguration> section) {
        this.section = section;
    }

    @Override
    public void run(C configuration, Environment environment) {
        ServerVirtualThreads.register(environment, section.apply(configuration), configuration.getServerFactory());
    }
}
