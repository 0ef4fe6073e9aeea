package com.example.threading.longpoll;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.InstrumentedExecutorService;
import com.codahale.metrics.MetricRegistry;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.ServletRegistration;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-poll pattern as one Dropwizard bundle: the event stream {@code events.stream} names (in-process by
 * default), hub, ticker, the servlets at {@code /events}, {@code /events/batch}, {@code /events/blocking} and
 * {@code /events/stream} (Server-Sent Events) on the application port behind the access policy {@code events.auth}
 * names (open by default), metrics {@code events.*} and the shutdown hook.
 * <pre>{@code
 * bootstrap.addBundle(new LongPollBundle<>(MyConfiguration::getEvents));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class LongPollBundle<C extends Configuration> implements ConfiguredBundle<C> {

    /** Path of the async long-poll (GET) and publish (POST) endpoint. */
    public static final String PATH = "/events";
    /** Path of the blocking long-poll used for comparison. */
    public static final String BLOCKING_PATH = "/events/blocking";
    /** Path where several events are published in one request (POST). */
    public static final String BATCH_PATH = "/events/batch";
    /** Path of the Server-Sent Events stream (GET) on the same hub. */
    public static final String STREAM_PATH = "/events/stream";

    private static final Logger LOG = LoggerFactory.getLogger(LongPollBundle.class);
    /** How often the event streams are checked for a stalled reader or an ended lifetime. */
    private static final long SSE_SWEEP_MS = 250;

    private final Function<C, EventsConfiguration> section;

    /** The pattern, configured from the section {@code section} picks out of the application's configuration. */
    public LongPollBundle(Function<C, EventsConfiguration> section) {
        this.section = section;
    }

    /** Creates the stream, hub and managed threads and registers servlets, metrics and lifecycle hooks. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        EventsConfiguration configuration = section.apply(applicationConfiguration);
        MetricRegistry metrics = environment.metrics();
        LongPollMetrics hubMetrics = new LongPollMetrics(metrics);
        JsonResponses json = new JsonResponses(environment.getObjectMapper());

        // One thread answers the batches: it only starts non-blocking writes, so one is enough, and batches stay in order.
        ExecutorService dispatcher = new InstrumentedExecutorService(
                environment.lifecycle().executorService("events-dispatch-%d").minThreads(1).maxThreads(1).build(),
                metrics, "events.dispatcher");
        // The stream events.stream names: in-process, or e.g. one Redis Stream shared by several instances, whose log
        // also answers the cursors this instance's ring cannot (older than the ring, or not read here yet).
        long tickMs = configuration.getTickPeriod().toMilliseconds();
        EventStream stream = configuration.getStream().build(environment, configuration.getHistorySize(), tickMs);
        ShutdownSpread shutdownSpread = new ShutdownSpread(configuration.getShutdownSpread().toMilliseconds());
        EventHub hub = new EventHub(new EventHub.Settings(configuration.getHistorySize(), configuration.getMaxParked(),
                configuration.getMaxTopics(), shutdownSpread, System::nanoTime), dispatcher, json, hubMetrics,
                stream.source(), stream.archive().orElse(null));
        stream.source().subscribe(hub);
        EventSink sink = stream.sink();

        // The polls' timeouts: one thread sweeps the hub's deadlines every tick (see PollDeadlines for why not Jetty's).
        ScheduledExecutorService deadlineSweeper = environment.lifecycle().scheduledExecutorService("events-deadlines").threads(1).build();
        deadlineSweeper.scheduleWithFixedDelay(() -> {
            try {
                hub.expireDue();
            } catch (RuntimeException bug) {
                LOG.error("sweeping the polls' deadlines failed; the next sweep retries", bug); // thrown, it would end the sweeps
            }
        }, EventHub.DEADLINE_SLOT_MS, EventHub.DEADLINE_SLOT_MS, TimeUnit.MILLISECONDS);
        // Idle topics are forgotten (their history too), once a second, on the same thread.
        long idleTopicNanos = configuration.getTopicIdleTimeout().toNanoseconds();
        deadlineSweeper.scheduleWithFixedDelay(() -> {
            try {
                hub.evictIdleTopics(idleTopicNanos);
            } catch (RuntimeException bug) {
                LOG.error("evicting idle topics failed; the next sweep retries", bug);
            }
        }, 1, 1, TimeUnit.SECONDS);

        metrics.register("events.parked", (Gauge<Integer>) hub::parkedCount);
        // The bound beside the count, so an alert can compare the two without knowing the configuration.
        int maxParked = configuration.getMaxParked();
        metrics.register("events.max-parked", (Gauge<Integer>) () -> maxParked);
        BlockingWaits blockingWaits = hub.blockingWaits();
        metrics.register("events.blocking.waiting", (Gauge<Integer>) blockingWaits::waiting);
        metrics.register("events.last-id", (Gauge<Long>) () -> hub.lastId(TopicNames.DEFAULT));
        metrics.register("events.topics.live", (Gauge<Integer>) hub::topicCount);

        if (tickMs > 0) {
            // No %d: Dropwizard's ScheduledExecutorServiceBuilder (unlike ExecutorServiceBuilder) uses the name format
            // as it is for its thread-factory metrics ("events-ticker-%d.running"); its one thread is "events-ticker".
            ScheduledExecutorService scheduler = environment.lifecycle()
                    .scheduledExecutorService("events-ticker").threads(1).build();
            // Instances sharing a stream tick only while their gate lets them (e.g. a lease): one tick per period.
            environment.lifecycle().manage(new EventTicker(sink, stream.tickGate(), scheduler, tickMs,
                    configuration.getPublishTimeout().toMilliseconds(), metrics.meter("events.tick.failures")));
        }
        environment.lifecycle().addEventListener(
                new StopAnsweringParkedPolls(hub, hubMetrics, shutdownSpread, configuration.getShutdownTimeout().toMilliseconds()));

        PollLimits limits = new PollLimits(configuration.getDefaultTimeout().toSeconds(),
                configuration.getMaxTimeout().toSeconds(), configuration.getMaxTopicsPerPoll(), json);
        // Who may read and publish which topic (events.auth): asked by both servlets and publishing, before the hub.
        AccessGate access = new AccessGate(configuration.getAuth().build(environment, configuration.getPublishToken()),
                limits, configuration.getRetryAfter().toSeconds(), metrics, Clock.systemUTC());
        EventPublishing publishing = new EventPublishing(sink, hub::admitTopics, json, access, PublishLimits.of(configuration),
                new PublishMetrics(metrics));
        metrics.register("events.publish.reading", (Gauge<Integer>) publishing::bodiesInFlight);
        metrics.register("events.publish.in-flight", (Gauge<Integer>) publishing::inFlight);

        // How the hub's answers look on HTTP, for the async long-poll and its blocking twin alike.
        AsyncDelivery.Wire wire = new AsyncDelivery.Wire(json, configuration.getRetryAfter().toSeconds(), hubMetrics.disconnects);
        ServletRegistration.Dynamic async = environment.servlets()
                .addServlet("events", new LongPollServlet(hub, publishing, json, access, wire));
        async.setAsyncSupported(true);
        async.addMapping(PATH);
        ServletRegistration.Dynamic batch = environment.servlets()
                .addServlet("events-batch", new BatchPublishServlet(publishing, json));
        batch.setAsyncSupported(true);
        batch.addMapping(BATCH_PATH);
        ServletRegistration.Dynamic blocking = environment.servlets()
                .addServlet("events-blocking", new BlockingLongPollServlet(blockingWaits, json, access, wire,
                        shutdownSpread, hubMetrics.shutdownTurnedAway));
        blocking.addMapping(BLOCKING_PATH);

        // Server-Sent Events on the same hub: each stream a sequence of polls whose deadline is the heartbeat; the same
        // thread as the deadlines sheds the streams that stopped draining and ends those past their lifetime.
        SseConfiguration sse = configuration.getSse();
        SseStreams streams = new SseStreams(sse.getMaxStreams(), sse.getRetry().toMilliseconds(),
                sse.getMaxLifetime().toNanoseconds(), sse.getDrainTimeout().toNanoseconds());
        deadlineSweeper.scheduleWithFixedDelay(() -> {
            try {
                streams.sweep(System.nanoTime());
            } catch (RuntimeException bug) {
                LOG.error("sweeping the event streams failed; the next sweep retries", bug);
            }
        }, SSE_SWEEP_MS, SSE_SWEEP_MS, TimeUnit.MILLISECONDS);
        metrics.register("events.sse.open", (Gauge<Integer>) streams::openCount);
        metrics.register("events.sse.max-streams", (Gauge<Integer>) streams::maxStreams);
        metrics.register("events.sse.unsent-bytes", (Gauge<Long>) streams::unsentBytes);
        SseStream.Context streamContext = new SseStream.Context(hub, json, new SseEventJson(json), streams, new SseMetrics(metrics),
                sse.getHeartbeat().toMilliseconds());
        ServletRegistration.Dynamic eventStream = environment.servlets().addServlet("events-stream",
                new SseServlet(streamContext, limits, access, sse.getMaxUnsentBytes().toBytes(),
                        configuration.getRetryAfter().toSeconds(), System::nanoTime));
        eventStream.setAsyncSupported(true);
        eventStream.addMapping(STREAM_PATH);
    }
}
