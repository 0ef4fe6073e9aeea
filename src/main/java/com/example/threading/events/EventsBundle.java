package com.example.threading.events;

import com.codahale.metrics.InstrumentedExecutorService;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.events.http.AccessGate;
import com.example.threading.events.http.EventRoutes;
import com.example.threading.events.http.EventsHttp;
import com.example.threading.events.http.JsonResponses;
import com.example.threading.events.http.PollLimits;
import com.example.threading.events.http.TransportBase;
import com.example.threading.events.hub.EventHub;
import com.example.threading.events.hub.HubMetrics;
import com.example.threading.events.hub.ShutdownSpread;
import com.example.threading.events.longpoll.LongPollTransport;
import com.example.threading.events.publish.EventTicker;
import com.example.threading.events.publish.PublishEndpoints;
import com.example.threading.events.publish.PublishLimits;
import com.example.threading.events.stream.EventStream;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-poll as one Dropwizard bundle: the event stream {@code events.stream} names (in-process by default), the
 * hub and its threads, the ticker, the access policy {@code events.auth} names (open by default), the long-poll and
 * publishing on the application port ({@code GET /events}, {@code GET /events/blocking}, {@code POST /events},
 * {@code POST /events/batch}); metrics {@code events.*} and the shutdown hook. Server-Sent Events and WebSocket are
 * bundles of their own added after it, on what {@link #base} gives.
 * <pre>{@code
 * EventsBundle<MyConfiguration> events = new EventsBundle<>(MyConfiguration::getEvents);
 * bootstrap.addBundle(events);
 * bootstrap.addBundle(new SseBundle<>(events::base, MyConfiguration::getSse));             // optional
 * bootstrap.addBundle(new WebSocketBundle<>(events::base, MyConfiguration::getWebsocket)); // optional
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class EventsBundle<C extends Configuration> implements ConfiguredBundle<C> {

    private static final Logger LOG = LoggerFactory.getLogger(EventsBundle.class);

    private final Function<C, EventsConfiguration> section;
    private TransportBase base; // set by run, on the start-up thread that then runs the bundles added after this one

    /** The wing, configured from the section {@code section} picks out of the application's configuration. */
    public EventsBundle(Function<C, EventsConfiguration> section) {
        this.section = section;
    }

    /** What a transport added by a bundle of its own builds on; there once this bundle has run. */
    public TransportBase base() {
        if (base == null) {
            throw new IllegalStateException("the long-poll's EventsBundle has not run: add it before the transports "
                    + "that build on it (SseBundle, WebSocketBundle)");
        }
        return base;
    }

    /** Creates the stream, hub and managed threads; the long-poll and publishing register their endpoints. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        EventsConfiguration events = section.apply(applicationConfiguration);
        MetricRegistry metrics = environment.metrics();
        long tickMs = events.getTickPeriod().toMilliseconds();
        // The stream events.stream names: in-process, or e.g. one Redis Stream shared by several instances, whose log
        // also answers the cursors this instance's ring cannot (older than the ring, or not read here yet).
        EventStream stream = events.getStream().build(environment, events.getHistorySize(), tickMs);
        ShutdownSpread shutdownSpread = new ShutdownSpread(events.getShutdownSpread().toMilliseconds());
        // One thread sweeps the polls' deadlines (see PollDeadlines for why not Jetty's), idle topics, and the streams
        // and sockets of the transports added on top.
        ScheduledExecutorService sweeper = environment.lifecycle().scheduledExecutorService("events-deadlines").threads(1).build();
        HubMetrics hubMetrics = new HubMetrics(metrics);
        EventHub hub = hub(events, environment, stream, shutdownSpread, hubMetrics, sweeper);

        if (tickMs > 0) {
            // No %d: Dropwizard's ScheduledExecutorServiceBuilder (unlike ExecutorServiceBuilder) uses the name format
            // as it is for its thread-factory metrics ("events-ticker-%d.running"); its one thread is "events-ticker".
            ScheduledExecutorService ticks = environment.lifecycle().scheduledExecutorService("events-ticker").threads(1).build();
            // Instances sharing a stream tick only while their gate lets them (e.g. a lease): one tick per period.
            environment.lifecycle().manage(new EventTicker(stream.sink(), stream.tickGate(), ticks, tickMs,
                    events.getPublishTimeout().toMilliseconds(), metrics.meter("events.tick.failures")));
        }
        environment.lifecycle().addEventListener(new StopAnsweringParkedPolls(hub, shutdownSpread,
                events.getShutdownTimeout().toMilliseconds(), metrics));

        JsonResponses json = new JsonResponses(environment.getObjectMapper());
        long retryAfterSeconds = events.getRetryAfter().toSeconds();
        PollLimits limits = new PollLimits(events.getDefaultTimeout().toSeconds(), events.getMaxTimeout().toSeconds(),
                events.getMaxTopicsPerPoll(), json);
        // Who may read and publish which topic (events.auth): asked by every transport and by publishing, before the hub.
        AccessGate access = new AccessGate(events.getAuth().build(environment, events.getPublishToken()), limits,
                retryAfterSeconds, metrics, Clock.systemUTC());
        EventsHttp http = new EventsHttp(hub, hubMetrics, json, access, retryAfterSeconds, shutdownSpread);
        EventRoutes routes = new EventRoutes(json);
        LongPollTransport.register(routes, http);
        PublishEndpoints.register(routes, http, stream.sink(), new PublishLimits(events.getMaxEventSize().toBytes(),
                events.getMaxPublishing(), events.getBodyReadTimeout().toMilliseconds(),
                events.getPublishTimeout().toMilliseconds(), retryAfterSeconds, events.getMaxBatchEvents()), metrics);
        routes.register(environment.servlets());
        base = new TransportBase(http, stream.sink(), events.getMaxEventSize().toBytes(),
                events.getPublishTimeout().toMilliseconds(), sweeper);
    }

    /** The hub on {@code stream}, its one dispatcher thread, its sweeps on {@code sweeper}, and its gauges. */
    private static EventHub hub(EventsConfiguration events, Environment environment, EventStream stream,
                                ShutdownSpread shutdownSpread, HubMetrics hubMetrics, ScheduledExecutorService sweeper) {
        // One thread answers the batches: it only starts non-blocking writes, so one is enough, and batches stay in order.
        ExecutorService dispatcher = new InstrumentedExecutorService(
                environment.lifecycle().executorService("events-dispatch-%d").minThreads(1).maxThreads(1).build(),
                environment.metrics(), "events.dispatcher");
        EventHub hub = new EventHub(new EventHub.Settings(events.getHistorySize(), events.getMaxParked(),
                events.getMaxTopics(), shutdownSpread, System::nanoTime), dispatcher, environment.getObjectMapper(),
                hubMetrics, stream.source(), stream.archive().orElse(null));
        stream.source().subscribe(hub);
        every(sweeper, EventHub.DEADLINE_SLOT_MS, hub::expireDue, "sweeping the polls' deadlines");
        // Idle topics are forgotten (their history too), once a second.
        long idleTopicNanos = events.getTopicIdleTimeout().toNanoseconds();
        every(sweeper, 1000, () -> hub.evictIdleTopics(idleTopicNanos), "evicting idle topics");
        hubMetrics.gauges(hub, events.getMaxParked());
        return hub;
    }

    /** Runs {@code task} every {@code periodMs} on {@code sweeper}; a failure is logged, and the next run retries. */
    private static void every(ScheduledExecutorService sweeper, long periodMs, Runnable task, String what) {
        sweeper.scheduleWithFixedDelay(() -> {
            try {
                task.run();
            } catch (RuntimeException bug) {
                LOG.error("{} failed; the next sweep retries", what, bug); // thrown, it would end the sweeps
            }
        }, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }
}
