package com.example.threading.work;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.InstrumentedExecutorService;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.dropwizard.core.setup.Environment;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the pools behind {@code /work/{pattern}} and registers the five resources, their response timers,
 * pool metrics and the bounded pool's health check. Metric names start with {@code work.<pattern>}.
 *
 * <p>Thread-safety: {@link #register} is called once, on the start-up thread, before the server takes requests;
 * what it builds (executors, resources, filter, metrics) is thread-safe and is handed to Jetty's threads by the
 * server's start.
 */
public final class WorkPatterns {

    /** Path under which every pattern answers: {@code /work/{pattern}}. */
    public static final String PATH = "/work";
    /** Servlet URL pattern that covers every pattern's endpoint, for filters. */
    public static final String URL_PATTERN = PATH + "/*";

    /** The patterns in the order docs/work.md and the load tool show them. */
    public static final List<String> PATTERNS = List.of("blocking", "thread-per-request", "cached", "bounded", "virtual");

    private static final Logger LOG = LoggerFactory.getLogger(WorkPatterns.class);

    private final WorkConfiguration configuration;

    /** Patterns configured from the {@code work} section of config.yml. */
    public WorkPatterns(WorkConfiguration configuration) {
        this.configuration = configuration;
    }

    /** Creates the managed pools and registers resources, filter, metrics and health check with Dropwizard. */
    public void register(Environment environment) {
        MetricRegistry metrics = environment.metrics();

        ThreadPerRequestExecutor threadPerRequest = new ThreadPerRequestExecutor("work-thread-per-request-");
        metrics.register("work.thread-per-request.live-threads", (Gauge<Integer>) threadPerRequest::liveThreads);
        metrics.register("work.thread-per-request.started-threads", (Gauge<Long>) threadPerRequest::startedThreads);
        // The anti-pattern stays unbounded per request but not in total: beyond maxThreads live threads, 503.
        AdmissionLimit threadPerRequestLimit = new AdmissionLimit(threadPerRequest,
                configuration.getThreadPerRequest().getMaxThreads());

        WorkConfiguration.CachedPool cached = configuration.getCachedPool();
        ExecutorService cachedPool = environment.lifecycle().executorService("work-cached-%d")
                .minThreads(0)
                .maxThreads(cached.getMaxThreads())
                .keepAliveTime(cached.getKeepAlive())
                .workQueue(new SynchronousQueue<>())
                .shutdownTime(configuration.getPoolShutdownTimeout())
                .build();

        // threads + queueCapacity places, counted by AdmissionLimit; the queue can hold all of them, so the
        // pool itself never refuses and the bound is exact however fast a burst arrives.
        WorkConfiguration.BoundedPool bounded = configuration.getBoundedPool();
        int boundedPlaces = bounded.getThreads() + bounded.getQueueCapacity();
        ExecutorService boundedPool = environment.lifecycle().executorService("work-bounded-%d")
                .minThreads(bounded.getThreads())
                .maxThreads(bounded.getThreads())
                .workQueue(new ArrayBlockingQueue<>(boundedPlaces))
                .shutdownTime(configuration.getPoolShutdownTimeout())
                .build();
        AdmissionLimit boundedAdmission = new AdmissionLimit(instrumented(boundedPool, "bounded", metrics), boundedPlaces);
        metrics.register("work.bounded.places-taken", (Gauge<Integer>) boundedAdmission::taken);
        environment.healthChecks().register("work-bounded-pool",
                new BoundedPoolHealthCheck(boundedAdmission, (ThreadPoolExecutor) boundedPool));

        Optional<ExecutorService> virtualThreads = VirtualThreads.newThreadPerTaskExecutor("work-virtual-");
        virtualThreads.ifPresentOrElse(
                executor -> environment.lifecycle().manage(
                        new ExecutorServiceManager(executor, configuration.getPoolShutdownTimeout(), "work-virtual")),
                () -> LOG.warn("Java {} has no virtual threads: /work/virtual will answer 501 (needs JDK 21+)",
                        Runtime.version().feature()));

        environment.jersey().register(new BlockingWorkResource());
        environment.jersey().register(new ThreadPerRequestWorkResource(asyncWork("thread-per-request", threadPerRequestLimit, metrics)));
        environment.jersey().register(new CachedPoolWorkResource(asyncWork("cached", instrumented(cachedPool, "cached", metrics), metrics)));
        environment.jersey().register(new BoundedPoolWorkResource(asyncWork("bounded", boundedAdmission, metrics)));
        environment.jersey().register(new VirtualThreadWorkResource(
                virtualThreads.map(executor -> asyncWork("virtual", instrumented(executor, "virtual", metrics), metrics))));

        Map<String, Timer> responseTimers = new LinkedHashMap<>();
        PATTERNS.forEach(pattern -> responseTimers.put(pattern, metrics.timer(MetricRegistry.name("work", pattern, "response-time"))));
        environment.servlets().addFilter("work-response-timing", new ResponseTimingFilter(responseTimers))
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, URL_PATTERN);
    }

    private AsyncWork asyncWork(String pattern, Executor executor, MetricRegistry metrics) {
        Duration timeout = configuration.getAsyncTimeout();
        return new AsyncWork(pattern, executor, timeout.toMilliseconds(), configuration.getRetryAfter().toSeconds(),
                metrics.meter(MetricRegistry.name("work", pattern, "rejected")),
                metrics.meter(MetricRegistry.name("work", pattern, "timeouts")));
    }

    /** Submitted, running, completed, rejected, idle and duration (and queue gauges for a ThreadPoolExecutor). */
    private static ExecutorService instrumented(ExecutorService pool, String pattern, MetricRegistry metrics) {
        return new InstrumentedExecutorService(pool, metrics, MetricRegistry.name("work", pattern, "executor"));
    }
}
