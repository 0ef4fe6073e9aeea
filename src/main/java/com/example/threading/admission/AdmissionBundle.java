package com.example.threading.admission;

import io.dropwizard.core.Configuration;
import io.dropwizard.core.ConfiguredBundle;
import io.dropwizard.core.setup.Environment;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.handler.ConditionalHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Admission control in front of the application, as one Dropwizard bundle: an {@link AdmissionHandler} (Jetty's {@code QoSHandler}; or
 * an {@link AdaptiveAdmissionHandler} with {@code limit: gradient2}) inserted into the application context's handler
 * chain, so it sees every request of the application connector (not the admin connector's) before any filter or
 * servlet, with metrics {@code admission.*}. Its defaults derive from the number of requests the server runs at once
 * (the thread bound, {@link ThreadBound}); requests of any method to the unadmitted paths (e.g. long-polls, which have
 * a bound of their own) pass without taking a place.
 * <pre>{@code
 * bootstrap.addBundle(new AdmissionBundle<>(MyConfiguration::getAdmission,
 *         configuration -> ThreadBound.platformThreads(configuration.getServerFactory()), "/events"));
 * }</pre>
 *
 * @param <C> the application's configuration
 */
public final class AdmissionBundle<C extends Configuration> implements ConfiguredBundle<C> {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionBundle.class);

    private final Function<C, AdmissionConfiguration> section;
    private final ToIntFunction<C> threadBound;
    private final List<String> unadmittedPaths;

    /**
     * @param section         picks the {@code admission} section out of the application's configuration
     * @param threadBound     how many requests the server runs at once, which the default limits derive from
     * @param unadmittedPaths paths whose requests pass without taking a place
     */
    public AdmissionBundle(Function<C, AdmissionConfiguration> section, ToIntFunction<C> threadBound, String... unadmittedPaths) {
        this.section = section;
        this.threadBound = threadBound;
        this.unadmittedPaths = List.of(unadmittedPaths);
    }

    /** Inserts the configured handler in front of the application; does nothing but log when {@code admission.enabled} is false. */
    @Override
    public void run(C applicationConfiguration, Environment environment) {
        AdmissionConfiguration configuration = section.apply(applicationConfiguration);
        int threadBound = this.threadBound.applyAsInt(applicationConfiguration);
        if (!configuration.isEnabled()) {
            LOG.info("admission control off (admission.enabled: false): requests beyond the pool wait in Jetty's unbounded queue");
            return;
        }
        AdmissionLimits limits = AdmissionLimits.resolve(configuration, threadBound);
        AdmissionMetrics metrics = new AdmissionMetrics(environment.metrics());
        OverloadAnswer answer = new OverloadAnswer(environment.getObjectMapper(), limits);
        ConditionalHandler handler;
        if (configuration.getLimit() == LimitKind.GRADIENT2) {
            AdaptiveAdmissionHandler adaptive = new AdaptiveAdmissionHandler(limits, answer, metrics);
            metrics.registerGauges(limits.maxRequests(), adaptive::activeCount, () -> 0);
            metrics.registerAdaptiveLimit(adaptive::currentLimit);
            handler = adaptive;
            LOG.info("admission control: adaptive (gradient2) limit from {} up to {} requests at once (thread bound {}), "
                            + "no queue, then 503 with Retry-After {} s; not counted: {}",
                    Math.min(AdaptiveAdmissionHandler.FLOOR, limits.maxRequests()), limits.maxRequests(), threadBound,
                    limits.retryAfterSeconds(), unadmittedPaths);
        } else {
            AdmissionHandler fixed = new AdmissionHandler(limits, answer, metrics);
            metrics.registerGauges(limits.maxRequests(), fixed::activeCount, fixed::getSuspendedRequestCount);
            handler = fixed;
            LOG.info("admission control: {} requests at once (thread bound {}), {} waiting for at most {} ms, "
                            + "then 503 with Retry-After {} s; not counted: {}",
                    limits.maxRequests(), threadBound, limits.maxQueued(), limits.maxQueueTime().toMillis(),
                    limits.retryAfterSeconds(), unadmittedPaths);
        }
        for (String path : unadmittedPaths) {
            // Every method: a POST /events reads its body without a thread, under a deadline of its own. Counted, a few
            // hundred connections trickling bodies would hold every place for that deadline and refuse everyone else.
            handler.exclude(PathSpec.from(path));
        }
        environment.getApplicationContext().insertHandler(handler);
    }
}
