package com.example.threading.context;

import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.baggage.Baggage;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.servlet.DispatcherType;
import java.util.EnumSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The request's context across thread hops, as one Dropwizard bundle: every request of the application connector gets
 * a request id ({@code X-Request-Id}), its W3C trace context and, with a tracing SDK, a server span
 * ({@link RequestContextHandler}, inserted in front of everything else the application context runs, admission control
 * included); the {@link io.opentelemetry.context.Context} that holds them is made current wherever the request is
 * picked up again ({@link RequestContextFilter}), and SLF4J's MDC shows it ({@link MdcContextStorage}). What carries it
 * across a hand-off is the OpenTelemetry API each pattern uses where it builds its executor
 * ({@code Context.taskWrapping}) or hands a request to another thread ({@code Context.current().wrap}): no pattern
 * needs this package.
 * <pre>{@code
 * bootstrap.addBundle(new RequestContextBundle<>(MyConfiguration::getContext));   // after admission control's bundle
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class RequestContextBundle<C extends Configuration> implements ConfiguredBundle<C> {

    private static final Logger LOG = LoggerFactory.getLogger(RequestContextBundle.class);

    private final Function<C, RequestContextConfiguration> section;
    private final OpenTelemetry given;
    private volatile OpenTelemetry openTelemetry = OpenTelemetry.noop();

    /** Context on every request, tracing as the {@code context} section {@code section} picks out says. */
    public RequestContextBundle(Function<C, RequestContextConfiguration> section) {
        this(section, null);
    }

    /** As above, spans recorded by {@code openTelemetry} (e.g. a test's in-memory SDK) whatever the section says. */
    public RequestContextBundle(Function<C, RequestContextConfiguration> section, OpenTelemetry openTelemetry) {
        this.section = section;
        this.given = openTelemetry;
    }

    /** Checks, before anything runs, that the MDC follows the current context (see {@link MdcContextStorage}). */
    @Override
    public void initialize(Bootstrap<?> bootstrap) {
        if (!mdcFollowsContext()) {
            LOG.warn("the MDC does not follow OpenTelemetry's context here (another context storage is in use, e.g. the"
                    + " OpenTelemetry Java agent's): log lines carry request_id, trace_id and user only where a request's"
                    + " own thread put them; with the agent, enable its logback MDC instrumentation instead");
        }
    }

    /** Puts the handler in front of the application and the filter first in its chain; decides where spans go. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        RequestContextConfiguration configuration = section.apply(applicationConfiguration);
        Tracing tracing = Tracing.resolve(given, configuration.getTracing(), environment.lifecycle());
        openTelemetry = tracing.openTelemetry();
        environment.getApplicationContext().insertHandler(
                new RequestContextHandler(tracing.openTelemetry().getTracer(Tracing.SCOPE), tracing.recording()));
        environment.servlets().addFilter("request-context", new RequestContextFilter())
                .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC), false, "/*");
        LOG.info("request context: {} on every answer of the application port, W3C trace context in and out; spans: {}",
                RequestContext.REQUEST_ID_HEADER, tracing.source());
    }

    /** The OpenTelemetry spans are recorded with, once {@link #run} has decided (the no-op before), for client spans. */
    public OpenTelemetry openTelemetry() {
        return openTelemetry;
    }

    /** Whether making a context current puts its request id into this thread's MDC (and takes it out after). */
    static boolean mdcFollowsContext() {
        String probe = "mdc-probe";
        try (Scope scope = Context.root().with(Baggage.builder().put(RequestContext.REQUEST_ID, probe).build()).makeCurrent()) {
            return probe.equals(MDC.get(RequestContext.MDC_REQUEST_ID));
        }
    }
}
