package com.example.threading.longpoll;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.InstrumentedExecutorService;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.longpoll.redis.RedisEventStream;
import io.dropwizard.core.setup.Environment;
import jakarta.servlet.ServletRegistration;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the long-poll pattern: event stream (in-process, or Redis with {@code events.stream.type: redis}), hub, ticker, the servlets at {@code /events} and
 * {@code /events/blocking} on the application port, metrics {@code events.*} and the shutdown hook.
 *
 * <p>Thread-safety: {@link #register} is called once, on the start-up thread, before the server takes requests;
 * the hub, stream, servlets and listeners it builds are thread-safe and reach Jetty's threads through the
 * server's start.
 */
public final class LongPoll {

    /** Path of the async long-poll (GET) and publish (POST) endpoint. */
    public static final String PATH = "/events";
    /** Path of the blocking long-poll used for comparison. */
    public static final String BLOCKING_PATH = "/events/blocking";

    private static final Logger LOG = LoggerFactory.getLogger(LongPoll.class);

    private final EventsConfiguration configuration;

    /** The pattern configured from the {@code events} section of config.yml. */
    public LongPoll(EventsConfiguration configuration) {
        this.configuration = configuration;
    }

    /** Creates the stream, hub and managed threads and registers servlets, metrics and lifecycle hooks. */
    public void register(Environment environment) {
        MetricRegistry metrics = environment.metrics();
        LongPollMetrics hubMetrics = new LongPollMetrics(metrics);
        JsonResponses json = new JsonResponses(environment.getObjectMapper());

        // One thread answers the batches: it only starts non-blocking writes, so one is enough, and batches stay in order.
        ExecutorService dispatcher = new InstrumentedExecutorService(
                environment.lifecycle().executorService("events-dispatch-%d").minThreads(1).maxThreads(1).build(),
                metrics, "events.dispatcher");
        // The stream: in-process, or one Redis Stream shared by several instances, whose log also answers the
        // cursors this instance's ring cannot (older than the ring, or not read here yet).
        RedisEventStream shared = configuration.getStream().getType() == EventStreamConfiguration.Type.REDIS
                ? RedisEventStream.register(environment, configuration.getStream().getRedis(), configuration.getHistorySize())
                : null;
        EventHub hub = new EventHub(configuration.getHistorySize(), configuration.getMaxParked(),
                configuration.getRetryAfter().toSeconds(), dispatcher, json, hubMetrics, shared);
        EventSink sink;
        if (shared != null) {
            shared.subscribe(hub);
            sink = shared;
        } else {
            InProcessEventStream inProcess = new InProcessEventStream(Clock.systemUTC());
            inProcess.subscribe(hub);
            sink = inProcess;
        }

        // The polls' timeouts: one thread sweeps the hub's deadlines every tick (see PollDeadlines for why not Jetty's).
        ScheduledExecutorService deadlineSweeper = environment.lifecycle().scheduledExecutorService("events-deadlines").threads(1).build();
        deadlineSweeper.scheduleWithFixedDelay(() -> {
            try {
                hub.expireDue();
            } catch (RuntimeException bug) {
                LOG.error("sweeping the polls' deadlines failed; the next sweep retries", bug); // thrown, it would end the sweeps
            }
        }, EventHub.DEADLINE_TICK_MS, EventHub.DEADLINE_TICK_MS, TimeUnit.MILLISECONDS);

        metrics.register("events.parked", (Gauge<Integer>) hub::parkedCount);
        BlockingWaits blockingWaits = hub.blockingWaits();
        metrics.register("events.blocking.waiting", (Gauge<Integer>) blockingWaits::waiting);
        metrics.register("events.last-id", (Gauge<Long>) hub::lastId);

        long tickMs = configuration.getTickPeriod().toMilliseconds();
        if (tickMs > 0) {
            // No %d: Dropwizard's ScheduledExecutorServiceBuilder (unlike ExecutorServiceBuilder) uses the name format
            // as it is for its thread-factory metrics ("events-ticker-%d.running"); its one thread is "events-ticker".
            ScheduledExecutorService scheduler = environment.lifecycle()
                    .scheduledExecutorService("events-ticker").threads(1).build();
            // Instances sharing a Redis stream tick only while they hold the cluster's ticker lease: one tick per period.
            TickGate gate = shared != null ? shared.tickGate(tickMs) : TickGate.ALWAYS;
            environment.lifecycle().manage(new EventTicker(sink, gate, scheduler, tickMs,
                    configuration.getPublishTimeout().toMilliseconds(), metrics.meter("events.tick.failures")));
        }
        environment.lifecycle().addEventListener(
                new StopAnsweringParkedPolls(hub, configuration.getShutdownTimeout().toMilliseconds()));

        PollLimits limits = new PollLimits(configuration.getDefaultTimeout().toSeconds(),
                configuration.getMaxTimeout().toSeconds(), json);
        PublishAccess access = new PublishAccess(configuration.getPublishToken());
        if (!access.requiresToken()) {
            LOG.info("No events.publishToken (EVENTS_PUBLISH_TOKEN) is set: POST {} accepts clients on this machine only", PATH);
        }
        EventPublishing publishing = new EventPublishing(sink, environment.getObjectMapper(), json,
                configuration.getMaxEventSize().toBytes(), access, configuration.getMaxPublishing(),
                configuration.getBodyReadTimeout().toMilliseconds(),
                configuration.getPublishTimeout().toMilliseconds(), configuration.getRetryAfter().toSeconds(),
                new PublishMetrics(metrics));
        metrics.register("events.publish.reading", (Gauge<Integer>) publishing::bodiesInFlight);
        metrics.register("events.publish.in-flight", (Gauge<Integer>) publishing::inFlight);

        ServletRegistration.Dynamic async = environment.servlets()
                .addServlet("events", new LongPollServlet(hub, publishing, json, limits));
        async.setAsyncSupported(true);
        async.addMapping(PATH);
        ServletRegistration.Dynamic blocking = environment.servlets()
                .addServlet("events-blocking", new BlockingLongPollServlet(blockingWaits, json, limits));
        blocking.addMapping(BLOCKING_PATH);
    }
}
