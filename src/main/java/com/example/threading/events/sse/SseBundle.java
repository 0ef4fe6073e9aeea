package com.example.threading.events.sse;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.http.EventRoutes;
import com.example.threading.events.http.EventsHttp;
import com.example.threading.events.http.EventsJson;
import com.example.threading.events.http.TransportBase;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Server-Sent Events transport as a bundle added on top of the long-poll's: {@code GET /events/stream} holds a
 * stream of the hub's events on one response, each event one frame written by a {@code WriteListener}, slow readers
 * shed, the streams bounded and swept; configuration {@link SseConfiguration}, metrics {@code events.sse.*}.
 * <pre>{@code
 * EventsBundle<MyConfiguration> events = new EventsBundle<>(MyConfiguration::getEvents);
 * bootstrap.addBundle(events);
 * bootstrap.addBundle(new SseBundle<>(events::base, MyConfiguration::getSse));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class SseBundle<C extends Configuration> implements ConfiguredBundle<C> {

    /** Path of the Server-Sent Events stream ({@code GET}). */
    public static final String PATH = "/events/stream";

    private static final Logger LOG = LoggerFactory.getLogger(SseBundle.class);
    /** How often the streams are checked for a stalled reader or an ended lifetime. */
    private static final long SWEEP_MS = 250;

    private final Supplier<TransportBase> base;
    private final Function<C, SseConfiguration> section;

    /**
     * The streams on what {@code base} gives once the long-poll's bundle has run (so add this bundle after it),
     * configured from the section {@code section} picks out of the application's configuration.
     */
    public SseBundle(Supplier<TransportBase> base, Function<C, SseConfiguration> section) {
        this.base = base;
        this.section = section;
    }

    /** Adds {@code GET /events/stream} and the streams' sweep and gauges. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        TransportBase from = base.get();
        EventRoutes routes = new EventRoutes(from.http().json());
        register(routes, from.http(), section.apply(applicationConfiguration), environment.metrics(), from.sweeper());
        routes.register(environment.servlets());
    }

    /**
     * Adds {@code GET /events/stream} on {@code http}'s hub to {@code routes}, configured by {@code sse}, its metrics
     * {@code events.sse.*} in {@code metrics}; {@code sweeper} sheds the streams that stopped draining and ends those
     * past their lifetime.
     */
    private static void register(EventRoutes routes, EventsHttp http, SseConfiguration sse, MetricRegistry metrics,
                                 ScheduledExecutorService sweeper) {
        SseStreams streams = new SseStreams(sse.getMaxStreams(), sse.getRetry().toMilliseconds(),
                sse.getMaxLifetime().toNanoseconds(), sse.getDrainTimeout().toNanoseconds());
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                streams.sweep(System.nanoTime());
            } catch (RuntimeException bug) {
                LOG.error("sweeping the event streams failed; the next sweep retries", bug); // thrown, it would end the sweeps
            }
        }, SWEEP_MS, SWEEP_MS, TimeUnit.MILLISECONDS);
        metrics.register("events.sse.open", (Gauge<Integer>) streams::openCount);
        metrics.register("events.sse.max-streams", (Gauge<Integer>) streams::maxStreams);
        metrics.register("events.sse.unsent-bytes", (Gauge<Long>) streams::unsentBytes);
        SseStream.Shared with = new SseStream.Shared(http.hub(), http.json(), new EventsJson<>(http.json()::bytes), streams,
                new SseMetrics(metrics), sse.getHeartbeat().toMilliseconds());
        routes.add("GET", PATH, new SseServlet(with, http.access().limits(), http.access(), sse.getMaxUnsentBytes().toBytes(),
                http.retryAfterSeconds(), System::nanoTime));
    }
}
