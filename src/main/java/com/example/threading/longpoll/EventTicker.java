package com.example.threading.longpoll;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.dropwizard.lifecycle.Managed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes {@code {"tick":n}} every period while the server runs: the "an event every 2 s" of the
 * async-servlet experiment.
 *
 * <p>Thread-safety: {@link #start} and {@link #stop} are called by the lifecycle thread. {@code tick} runs on the
 * scheduler: runs of one periodic task never overlap and each happens-before the next (the contract of
 * {@link ScheduledExecutorService#scheduleAtFixedRate}), so {@code ticks} needs no lock, even if the pool
 * replaces its thread. Publishing goes through the thread-safe {@link EventSink}.
 */
final class EventTicker implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(EventTicker.class);

    private final EventSink sink;
    private final ScheduledExecutorService scheduler;
    private final long periodMs;
    private long ticks;

    EventTicker(EventSink sink, ScheduledExecutorService scheduler, long periodMs) {
        this.sink = sink;
        this.scheduler = scheduler;
        this.periodMs = periodMs;
    }

    @Override
    public void start() {
        scheduler.scheduleAtFixedRate(this::tick, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        // The scheduler is a managed executor: the lifecycle shuts it down.
    }

    private void tick() {
        try {
            sink.publish(JsonNodeFactory.instance.objectNode().put("tick", ++ticks));
        } catch (RuntimeException e) {
            // An exception would cancel the periodic task: log it and keep ticking.
            LOG.warn("tick {} could not be published", ticks, e);
        }
    }
}
