package com.example.threading.client;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.InstrumentedExecutorService;
import com.codahale.metrics.MetricRegistry;
import com.example.threading.support.CompleteAsyncOnFailedWrite;
import io.dropwizard.client.JerseyClientBuilder;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import jakarta.servlet.DispatcherType;
import jakarta.ws.rs.client.Client;
import java.util.EnumSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code /fanout} as one Dropwizard bundle: builds the Jersey client with Dropwizard's {@link JerseyClientBuilder} on a
 * managed, instrumented pool, and registers the resource, its metrics and the filter that completes an async request
 * whose answer could not be written.
 * <pre>{@code
 * bootstrap.addBundle(new FanoutBundle<>(MyConfiguration::getClient));
 * }</pre> Metric names start with {@code client.fanout}
 * (pool, per-via timers and error meters); Dropwizard adds the HTTP client's own request timers
 * ({@code org.apache.hc.client5.http.classic.HttpClient.fanout.*}) and connection-pool gauges.
 *
 * @param <C> the application's configuration
 */
public final class FanoutBundle<C extends Configuration> implements ConfiguredBundle<C> {

    /** Path of the fan-out endpoint. */
    public static final String PATH = "/fanout";

    /**
     * What {@code /fanout} calls when {@code client.downstreamUrl} is not set: this service's own
     * {@code /work/cached} (the work pattern's cached pool), on the application connector. A literal rather than
     * a reference, because no pattern package imports another; the application's tests check that the two agree.
     */
    public static final String SELF_DOWNSTREAM_PATH = "/work/cached";

    /** Name of the Jersey client: its pool threads are {@code jersey-client-fanout-<n>}. */
    public static final String CLIENT_NAME = "fanout";

    private final Function<C, FanoutClientConfiguration> section;
    private final Supplier<OpenTelemetry> telemetry;

    /** The fan-out, configured from the section {@code section} picks out of the application's configuration. */
    public FanoutBundle(Function<C, FanoutClientConfiguration> section) {
        this(section, OpenTelemetry::noop);
    }

    /**
     * As above, its client spans recorded by what {@code telemetry} gives once the application has started (e.g. the
     * request-context bundle's {@code openTelemetry}); without, the calls carry the request's trace and id but record no
     * span.
     */
    public FanoutBundle(Function<C, FanoutClientConfiguration> section, Supplier<OpenTelemetry> telemetry) {
        this.section = section;
        this.telemetry = telemetry;
    }

    /** Creates the managed pool and client, and registers the resource, filter and metrics with Dropwizard. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        FanoutClientConfiguration configuration = section.apply(applicationConfiguration);
        MetricRegistry metrics = environment.metrics();

        // What JerseyClientBuilder would build from the same knobs, plus idle core threads timing out, so that
        // minThreads can be large (a thread per concurrent call at once) without being held while idle.
        ThreadPoolExecutor pool = (ThreadPoolExecutor) environment.lifecycle()
                .executorService("jersey-client-" + CLIENT_NAME + "-%d")
                .minThreads(configuration.getMinThreads())
                .maxThreads(configuration.getMaxThreads())
                .workQueue(new ArrayBlockingQueue<>(configuration.getWorkQueueSize()))
                .allowCoreThreadTimeOut(true)
                .keepAliveTime(configuration.getThreadKeepAlive())
                .shutdownTime(configuration.getPoolShutdownTimeout())
                .build();
        // Each task runs in the context (request id, trace) of the thread that handed it over, and the pool thread's own
        // comes back after: Jersey's rx(), async() callbacks and the RxJava calls all run here.
        ExecutorService instrumented = Context.taskWrapping(
                new InstrumentedExecutorService(pool, metrics, MetricRegistry.name("client", CLIENT_NAME, "executor")));

        Client client = new JerseyClientBuilder(environment)
                .using(configuration)
                .using(instrumented)
                .withProvider(new ThreadRecordingFilter())
                .withProvider(new DownstreamContext(telemetry))
                .build(CLIENT_NAME);

        environment.lifecycle().manage(new RxJavaLifecycle(metrics.meter(MetricRegistry.name("client", CLIENT_NAME, "rxjava", "dropped"))));

        CallPlaces managedPlaces = new CallPlaces(configuration.getMaxCallsInFlight());
        CommonCallLimit commonLimit = new CommonCallLimit(configuration.getCommonMaxCalls());
        metrics.register(MetricRegistry.name("client", CLIENT_NAME, "in-flight"), (Gauge<Integer>) managedPlaces::inUse);
        metrics.register(MetricRegistry.name("client", CLIENT_NAME, Via.COMMON.label(), "in-flight"),
                (Gauge<Integer>) commonLimit::inFlight);
        environment.jersey().register(new FanoutResource(client, Downstream.from(configuration, environment),
                new FanoutCalls(instrumented, pool, managedPlaces, commonLimit, StructuredFanouts.load(),
                        configuration.getFanoutTimeout().toJavaDuration()), configuration.getFanoutTimeout().toMilliseconds(),
                ViaMetrics.register(metrics, CLIENT_NAME), configuration.getRetryAfter().toSeconds()));
        // The resource resumes an AsyncResponse: see support.CompleteAsyncOnFailedWrite for why this filter is needed.
        environment.servlets().addFilter("fanout-complete-async-on-failed-write", new CompleteAsyncOnFailedWrite())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, PATH);
    }
}
