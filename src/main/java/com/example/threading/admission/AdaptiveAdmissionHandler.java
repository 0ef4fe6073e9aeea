package com.example.threading.admission;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import java.util.Optional;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ConditionalHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Admission control with an adaptive limit ({@code admission.limit: gradient2}): Netflix concurrency-limits'
 * {@link Gradient2Limit} behind a {@link SimpleLimiter}. A request takes a place if fewer than the current limit
 * are in flight, and gives it back when it <em>completes</em> (Jetty's completion listener, so an async request
 * counts until its answer is written, as with the fixed limit), reporting its round-trip time to the limit, which
 * moves between a floor and {@code maxRequests}. There is no queue: a request over the limit is answered 503 at
 * once. The library's servlet filter does not resolve here and would stop at the servlet's return for async
 * requests; this is the same idea as a Jetty handler.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Start-up thread: builds the handler before the server starts; the server's start publishes it to Jetty's
 *       threads.</li>
 *   <li>Jetty threads handling requests, any number at once: {@link #onConditionsMet} takes a place from the limiter
 *       (an atomic in-flight count, never a wait) or answers 503 at once.</li>
 *   <li>The thread that completes an admitted request, any thread: its completion listener gives the place back,
 *       exactly once (Jetty runs a request's completion listeners once), and feeds the round-trip time to the limit,
 *       which updates under the limiter's own lock.</li>
 *   <li>Gauges, on admin threads: {@link #activeCount} and {@link #currentLimit} read the limiter's current values,
 *       each up to date, not one snapshot of both.</li>
 * </ul>
 * {@code AdaptiveAdmissionTest} checks it on the real server: a burst three times the floor, the floor's worth
 * admitted, the rest refused at once, and every place given back.
 */
final class AdaptiveAdmissionHandler extends ConditionalHandler.Abstract {

    /** The limit the adaptive one starts from and never goes below (Gradient2's own default), capped by maxRequests. */
    static final int FLOOR = 20;

    private final SimpleLimiter<Request> limiter;
    private final OverloadAnswer answer;
    private final AdmissionMetrics metrics;

    /** A handler whose limit adapts between {@link #FLOOR} and {@code limits.maxRequests()}. */
    AdaptiveAdmissionHandler(AdmissionLimits limits, OverloadAnswer answer, AdmissionMetrics metrics) {
        int floor = Math.min(FLOOR, limits.maxRequests());
        this.limiter = SimpleLimiter.newBuilder()
                .named("admission")
                .limit(Gradient2Limit.newBuilder()
                        .initialLimit(floor)
                        .minLimit(floor)
                        .maxConcurrency(limits.maxRequests())
                        .build())
                .build();
        this.answer = answer;
        this.metrics = metrics;
    }

    /** Requests that hold a place now. */
    int activeCount() {
        return limiter.getInflight();
    }

    /** The limit in force now. */
    int currentLimit() {
        return limiter.getLimit();
    }

    @Override
    protected boolean onConditionsMet(Request request, Response response, Callback callback) throws Exception {
        Optional<Limiter.Listener> place = limiter.acquire(request);
        if (place.isEmpty()) {
            metrics.refusedQueueFull();
            answer.writeOverLimit(response, callback);
            return true;
        }
        Limiter.Listener listener = place.get();
        metrics.admitted(0);
        // A request that failed (reset, error) says nothing about the service's latency: ignored, not sampled.
        Request.addCompletionListener(request, failure -> {
            if (failure == null) {
                listener.onSuccess();
            } else {
                listener.onIgnore();
            }
        });
        return nextHandler(request, response, callback);
    }

    @Override
    protected boolean onConditionsNotMet(Request request, Response response, Callback callback) throws Exception {
        return nextHandler(request, response, callback);
    }
}
