package com.example.threading.work;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.InstrumentedExecutorService;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import com.example.threading.support.CompleteAsyncOnFailedWrite;
import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import io.opentelemetry.context.Context;
import io.dropwizard.lifecycle.ExecutorServiceManager;
import io.dropwizard.util.Duration;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The five {@code /work/{pattern}} endpoints as one Dropwizard bundle: builds their pools and registers the
 * resources, their response timers, pool metrics, the bounded pool's health check and the filter that completes an
 * async request whose answer could not be written. Metric names start with {@code work.<pattern>}.
 * <pre>{@code
 * bootstrap.addBundle(new WorkBundle<>(MyConfiguration::getWork));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class WorkBundle<C extends Configuration> implements ConfiguredBundle<C> {

    /** Path under which every pattern answers: {@code /work/{pattern}}. */
    public static final String PATH = "/work";
    /** Servlet URL pattern that covers every pattern's endpoint, for filters. */
    public static final String URL_PATTERN = PATH + "/*";

    /** The patterns in the order docs/work.md and the load tool show them. */
    public static final List<String> PATTERNS = List.of("blocking", "thread-per-request", "cached", "bounded", "virtual");

    private static final Logger LOG = LoggerFactory.getLogger(WorkBundle.class);

    private final Function<C, WorkConfiguration> section;

    /** The patterns, configured from the section {@code section} picks out of the application's configuration. */
    public WorkBundle(Function<C, WorkConfiguration> section) {
        this.section = section;
    }

    /** Creates the managed pools and registers resources, filters, metrics and health check with Dropwizard. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        WorkConfiguration configuration = section.apply(applicationConfiguration);
        MetricRegistry metrics = environment.metrics();

        ThreadPerRequestExecutor threadPerRequest = new ThreadPerRequestExecutor("work-thread-per-request-");
        metrics.register("work.thread-per-request.live-threads", (Gauge<Integer>) threadPerRequest::liveThreads);
        metrics.register("work.thread-per-request.started-threads", (Gauge<Long>) threadPerRequest::startedThreads);
        // The anti-pattern stays unbounded per request but not in total: beyond maxThreads live threads, 503.
        PlaceLimitedExecutor threadPerRequestLimit = new PlaceLimitedExecutor(threadPerRequest,
                configuration.getThreadPerRequest().getMaxThreads());

        WorkConfiguration.CachedPool cached = configuration.getCachedPool();
        ExecutorService cachedPool = environment.lifecycle().executorService("work-cached-%d")
                .minThreads(0)
                .maxThreads(cached.getMaxThreads())
                .keepAliveTime(cached.getKeepAlive())
                .workQueue(new SynchronousQueue<>())
                .shutdownTime(configuration.getPoolShutdownTimeout())
                .build();

        // threads + queueCapacity places, counted by PlaceLimitedExecutor; the queue can hold all of them, so the
        // pool itself never refuses and the bound is exact however fast a burst arrives.
        WorkConfiguration.BoundedPool bounded = configuration.getBoundedPool();
        int boundedPlaces = bounded.getThreads() + bounded.getQueueCapacity();
        ExecutorService boundedPool = environment.lifecycle().executorService("work-bounded-%d")
                .minThreads(bounded.getThreads())
                .maxThreads(bounded.getThreads())
                .workQueue(new ArrayBlockingQueue<>(boundedPlaces))
                .shutdownTime(configuration.getPoolShutdownTimeout())
                .build();
        PlaceLimitedExecutor boundedAdmission = new PlaceLimitedExecutor(instrumented(boundedPool, "bounded", metrics), boundedPlaces);
        metrics.register("work.bounded.places-taken", (Gauge<Integer>) boundedAdmission::taken);
        environment.healthChecks().register("work-bounded-pool",
                new BoundedPoolHealthCheck(boundedAdmission, (ThreadPoolExecutor) boundedPool));

        Optional<ExecutorService> virtualThreads = VirtualThreads.newThreadPerTaskExecutor("work-virtual-");
        virtualThreads.ifPresentOrElse(
                executor -> environment.lifecycle().manage(
                        new ExecutorServiceManager(executor, configuration.getPoolShutdownTimeout(), "work-virtual")),
                () -> LOG.warn("/work/virtual will answer 501: {}", VirtualThreads.missing().orElseThrow()));

        environment.jersey().register(new BlockingWorkResource());
        environment.jersey().register(new ThreadPerRequestWorkResource(asyncWork(configuration, "thread-per-request", threadPerRequestLimit, SimulatedWork::waitFor, metrics)));
        environment.jersey().register(new CachedPoolWorkResource(asyncWork(configuration, "cached", instrumented(cachedPool, "cached", metrics), SimulatedWork::waitFor, metrics)));
        environment.jersey().register(new BoundedPoolWorkResource(asyncWork(configuration, "bounded", boundedAdmission, SimulatedWork::waitFor, metrics)));
        AsyncWork.Wait virtualWait = virtualWait(configuration.getVirtual(), metrics);
        environment.jersey().register(new VirtualThreadWorkResource(virtualThreads.map(executor ->
                asyncWork(configuration, "virtual", instrumented(executor, "virtual", metrics), virtualWait, metrics))));

        Map<String, Timer> responseTimers = new LinkedHashMap<>();
        PATTERNS.forEach(pattern -> responseTimers.put(pattern, metrics.timer(MetricRegistry.name("work", pattern, "response-time"))));
        environment.servlets().addFilter("work-response-timing", new ResponseTimingFilter(responseTimers))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, URL_PATTERN);
        // The async patterns resume an AsyncResponse: see support.CompleteAsyncOnFailedWrite for why this filter is needed.
        environment.servlets().addFilter("work-complete-async-on-failed-write", new CompleteAsyncOnFailedWrite())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, URL_PATTERN);
    }

    /**
     * The pattern's async work on {@code executor}, each task run in the context (request id, trace) of the request
     * that handed it over, the thread's own context restored after: {@code Context.taskWrapping} wraps it once, here.
     */
    private static AsyncWork asyncWork(WorkConfiguration configuration, String pattern, Executor executor, AsyncWork.Wait wait,
                                       MetricRegistry metrics) {
        Duration timeout = configuration.getAsyncTimeout();
        return new AsyncWork(pattern, Context.taskWrapping(executor), wait, timeout.toMilliseconds(), configuration.getRetryAfter().toSeconds(),
                metrics.meter(MetricRegistry.name("work", pattern, "rejected")),
                metrics.meter(MetricRegistry.name("work", pattern, "timeouts")));
    }

    /**
     * {@code /work/virtual}'s wait: the simulated one alone, or, with {@code work.virtual.downstreamConnections}, the
     * same wait holding one of that many connections of a {@link ScarceDownstream}, behind a bulkhead when
     * {@code work.virtual.maxWait} is set.
     */
    private static AsyncWork.Wait virtualWait(WorkConfiguration.Virtual virtual, MetricRegistry metrics) {
        if (virtual.getDownstreamConnections() == 0) {
            return SimulatedWork::waitFor;
        }
        ScarceDownstream downstream = new ScarceDownstream(virtual.getDownstreamConnections(),
                virtual.getMaxWait().map(Duration::toJavaDuration),
                metrics.timer("work.virtual.downstream.wait"), metrics.meter("work.virtual.downstream.refused"));
        metrics.register("work.virtual.downstream.in-use", (Gauge<Integer>) downstream::inUse);
        metrics.register("work.virtual.downstream.waiting", (Gauge<Integer>) downstream::waiting);
        return (pattern, ms) -> downstream.call(() -> SimulatedWork.waitFor(pattern, ms));
    }

    /** Submitted, running, completed, rejected, idle and duration (and queue gauges for a ThreadPoolExecutor). */
    private static ExecutorService instrumented(ExecutorService pool, String pattern, MetricRegistry metrics) {
        return new InstrumentedExecutorService(pool, metrics, MetricRegistry.name("work", pattern, "executor"));
    }
}
