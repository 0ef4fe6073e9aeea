package com.example.threading.events.access.jwt;

import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Bootstrap;

/**
 * Lets {@code events.auth.type: jwt} decide who may read and publish which topic from a JWT's claims: registers the
 * {@code jwt} type with the configuration's object mapper, before the configuration is read. Add it next to the
 * long-poll bundle:
 * <pre>{@code
 * bootstrap.addBundle(new JwtAccessBundle());
 * bootstrap.addBundle(new EventsBundle<>(MyConfiguration::getEvents));
 * }</pre>
 * The policy itself is built by the events bundle when the configuration names it ({@link JwtAccessFactory}).
 */
public final class JwtAccessBundle implements ConfiguredBundle<Object> {

    @Override
    public void initialize(Bootstrap<?> bootstrap) {
        bootstrap.getObjectMapper().registerSubtypes(JwtAccessFactory.class);
    }
}
