package com.example.threading.events.stream.config;

import com.example.threading.events.stream.EventStream;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.dropwizard.core.setup.Environment;

/**
 * The {@code events.stream} section: which event stream the long-poll runs on, chosen by its {@code type} like
 * Dropwizard's own {@code server.type}. {@code in-process} (the default, {@link InProcessStreamFactory}) is built in;
 * a shared stream registers its type from its own bundle (e.g. {@code redis}, from the Redis sub-package), so this
 * package needs nothing of it. Without the section the stream is in-process; an unknown {@code type} refuses to start,
 * naming the known ones.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes(@JsonSubTypes.Type(value = InProcessStreamFactory.class, name = InProcessStreamFactory.TYPE))
public interface EventStreamFactory {

    /**
     * Builds the stream and registers what it needs with {@code environment} (lifecycle, health checks, metrics).
     *
     * @param historySize  events the hub keeps in its ring, e.g. for a shared stream's reader to prefill it
     * @param tickPeriodMs the ticker's period, 0 when it is off
     */
    EventStream build(Environment environment, int historySize, long tickPeriodMs);
}
