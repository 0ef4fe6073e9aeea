package com.example.threading.events.stream.redis;

import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Bootstrap;

/**
 * Lets {@code events.stream.type: redis} run the long-poll on a Redis Stream shared by several instances: registers
 * the {@code redis} stream type with the configuration's object mapper, before the configuration is read. Add it next
 * to the events bundle:
 * <pre>{@code
 * bootstrap.addBundle(new RedisEventStreamBundle());
 * bootstrap.addBundle(new EventsBundle<>(MyConfiguration::getEvents));
 * }</pre>
 * The stream itself is built by the events bundle when the configuration names it ({@link RedisStreamFactory}).
 */
public final class RedisEventStreamBundle implements ConfiguredBundle<Object> {

    @Override
    public void initialize(Bootstrap<?> bootstrap) {
        bootstrap.getObjectMapper().registerSubtypes(RedisStreamFactory.class);
    }
}
