package com.example.threading.admission;

import io.dropwizard.core.setup.Environment;
import java.util.List;
import org.eclipse.jetty.http.pathmap.PathSpec;
import org.eclipse.jetty.server.handler.ConditionalHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts admission control in front of the application: an {@link AdmissionHandler} (Jetty's {@code QoSHandler}; or
 * an {@link AdaptiveAdmissionHandler} with {@code limit: gradient2}) inserted into the application context's handler
 * chain, so it sees every request of the application connector (not the admin connector's) before any filter or
 * servlet, with metrics {@code admission.*}.
 *
 * <p>Thread-safety: {@link #register} is called once, on the start-up thread, before the server is built; the
 * handler it inserts is started with the server and then used by Jetty's threads.
 */
public final class AdmissionControl {

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionControl.class);

    private AdmissionControl() {
    }

    /**
     * Inserts admission control configured by {@code configuration}, with defaults derived from {@code threadBound}
     * (see {@link ThreadBound}); requests of any method to {@code unadmittedPaths} (e.g. long-polls, which have a bound of
     * their own) pass without taking a place. Does nothing but log when {@code admission.enabled} is false.
     */
    public static void register(Environment environment, AdmissionConfiguration configuration, int threadBound,
                                String... unadmittedPaths) {
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
                    limits.retryAfterSeconds(), List.of(unadmittedPaths));
        } else {
            AdmissionHandler fixed = new AdmissionHandler(limits, answer, metrics);
            metrics.registerGauges(limits.maxRequests(), fixed::activeCount, fixed::getSuspendedRequestCount);
            handler = fixed;
            LOG.info("admission control: {} requests at once (thread bound {}), {} waiting for at most {} ms, "
                            + "then 503 with Retry-After {} s; not counted: {}",
                    limits.maxRequests(), threadBound, limits.maxQueued(), limits.maxQueueTime().toMillis(),
                    limits.retryAfterSeconds(), List.of(unadmittedPaths));
        }
        for (String path : unadmittedPaths) {
            // Every method: a POST /events reads its body without a thread, under a deadline of its own. Counted, a few
            // hundred connections trickling bodies would hold every place for that deadline and refuse everyone else.
            handler.exclude(PathSpec.from(path));
        }
        environment.getApplicationContext().insertHandler(handler);
    }
}
