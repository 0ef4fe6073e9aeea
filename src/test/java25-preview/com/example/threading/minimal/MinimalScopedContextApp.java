package com.example.threading.minimal;

import io.dropwizard.core.Application;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.setup.Environment;

/**
 * A copier's application for {@link MinimalScopedContext} (JDK 25 with preview features, so compiled apart from the
 * test that starts it): the one line that adds it.
 */
public final class MinimalScopedContextApp extends Application<Configuration> {

    @Override
    public void run(Configuration configuration, Environment environment) {
        MinimalScopedContext.register(environment);
    }
}
