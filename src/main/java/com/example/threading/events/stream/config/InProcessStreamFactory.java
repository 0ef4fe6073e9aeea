package com.example.threading.events.stream.config;

import com.example.threading.events.stream.EventStream;
import com.example.threading.events.stream.InProcessEventStream;
import com.example.threading.events.stream.TickGate;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.dropwizard.core.setup.Environment;
import java.time.Clock;
import java.util.Optional;

/**
 * {@code events.stream.type: in-process}: events numbered 1, 2, 3... in this JVM; nothing to install, one instance
 * only. It has no settings of its own and ignores those of the other stream types, which a configuration file may
 * carry so that the type alone (e.g. from the environment) switches between them.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class InProcessStreamFactory implements EventStreamFactory {

    /** The value of {@code events.stream.type}. */
    public static final String TYPE = "in-process";

    @Override
    public EventStream build(Environment environment, int historySize, long tickPeriodMs) {
        InProcessEventStream stream = new InProcessEventStream(Clock.systemUTC());
        return new EventStream(stream, stream, Optional.empty(), TickGate.ALWAYS);
    }
}
