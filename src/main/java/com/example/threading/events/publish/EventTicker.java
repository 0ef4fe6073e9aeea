package com.example.threading.events.publish;

import com.codahale.metrics.Meter;
import com.example.threading.events.stream.EventSink;
import com.example.threading.events.stream.TickGate;
import com.example.threading.events.stream.TopicNames;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.dropwizard.lifecycle.Managed;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes {@code {"tick":n}} every period while the server runs: the "an event every 2 s" of the
 * async-servlet experiment. The scheduler thread only starts each publish; a tick that the stream fails (or does
 * not take within {@code publishTimeout}) is counted in {@code events.tick.failures}; one WARN line without stack
 * trace when a run of failures begins and one INFO line when ticks get through again, so a stream that is down for
 * an hour does not flood the log. Ticking goes on regardless. A {@link TickGate} may skip periods: instances that
 * share a stream let only their leader tick.
 *
 * <p>Thread-safety: {@link #start} and {@link #stop} are called by the lifecycle thread. {@code tick} runs on the
 * scheduler: runs of one periodic task never overlap and each happens-before the next (the contract of
 * {@link ScheduledExecutorService#scheduleAtFixedRate}); the gate's answer may arrive on another thread, so
 * {@code ticks} is an atomic. Publishing goes through the thread-safe {@link EventSink}; publish outcomes arrive
 * on any thread and only touch the atomic {@code failuresInARow} and the thread-safe meter.
 */
public final class EventTicker implements Managed {

    private static final Logger LOG = LoggerFactory.getLogger(EventTicker.class);

    private final EventSink sink;
    private final TickGate gate;
    private final ScheduledExecutorService scheduler;
    private final long periodMs;
    private final long publishTimeoutMs;
    private final Meter failures;
    private final AtomicInteger failuresInARow = new AtomicInteger();
    private final AtomicLong ticks = new AtomicLong();

    /** A ticker that ticks every period (one instance). */
    EventTicker(EventSink sink, ScheduledExecutorService scheduler, long periodMs, long publishTimeoutMs, Meter failures) {
        this(sink, TickGate.ALWAYS, scheduler, periodMs, publishTimeoutMs, failures);
    }

    /** A ticker that ticks in the periods {@code gate} allows (e.g. only while this instance leads a cluster). */
    public EventTicker(EventSink sink, TickGate gate, ScheduledExecutorService scheduler, long periodMs, long publishTimeoutMs,
                Meter failures) {
        this.sink = sink;
        this.gate = gate;
        this.scheduler = scheduler;
        this.periodMs = periodMs;
        this.publishTimeoutMs = publishTimeoutMs;
        this.failures = failures;
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
        CompletionStage<Boolean> allowed;
        try {
            allowed = gate.mayTick();
        } catch (RuntimeException brokenGate) {
            allowed = CompletableFuture.failedFuture(brokenGate);
        }
        // Never throws, so the periodic task is never cancelled by an exception.
        allowed.whenComplete((mayTick, failure) -> {
            if (failure != null) {
                failed(ticks.get() + 1, failure);
            } else if (mayTick) {
                publish(ticks.incrementAndGet());
            }
        });
    }

    private void publish(long tick) {
        // BoundedPublish never throws.
        BoundedPublish.publish(sink, TopicNames.DEFAULT, JsonNodeFactory.instance.objectNode().put("tick", tick), publishTimeoutMs)
                .whenComplete((event, failure) -> {
                    if (failure == null) {
                        published(tick);
                    } else {
                        failed(tick, failure);
                    }
                });
    }

    private void published(long tick) {
        int failed = failuresInARow.getAndSet(0);
        if (failed > 0) {
            LOG.info("tick {} published: the event stream takes ticks again after {} failed", tick, failed);
        }
    }

    private void failed(long tick, Throwable failure) {
        failures.mark();
        if (failuresInARow.getAndIncrement() == 0) {
            LOG.warn("tick {} could not be published, ticking on (logged again when a tick gets through): {}", tick, describe(failure));
        } else {
            LOG.debug("tick {} could not be published: {}", tick, describe(failure));
        }
    }

    private String describe(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof TimeoutException ? "no answer within " + publishTimeoutMs + " ms" : cause.toString();
    }
}
