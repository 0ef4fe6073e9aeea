package com.example.threading.admission;

import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty's {@link QoSHandler} with this service's answer and metrics: at most {@code maxRequests} requests run
 * past it at once, up to {@code maxQueued} more are suspended (no thread held) for at most {@code maxQueueTime},
 * every other one is answered by {@link OverloadAnswer} at once (503, {@code Retry-After}, JSON).
 *
 * <p>What QoSHandler does by itself and what this adds: it releases a place when the request <em>completes</em>
 * (the response is written), so an async request holds its place until its answer is sent; it sends no
 * {@code Retry-After} and writes Jetty's error page (overridden in {@link #reject} and {@link #expireSuspended});
 * by default a suspended request waits forever ({@code maxSuspend} zero; set here from {@code maxQueueTime}).
 * Requests matching an exclusion (the paths given to {@link AdmissionBundle}) pass without taking a place.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Start-up thread: configures the handler before the server starts. QoSHandler's own places and queue are
 *       thread-safe; this class adds an atomic counter and a request attribute.</li>
 *   <li>The Jetty thread that handles a request stamps its arrival before QoSHandler suspends or forwards it.
 *       {@link #nextHandler} then runs on that thread (a place was free) or on the pool thread that resumes it;
 *       QoSHandler's queue orders the stamp before the resume, so the attribute is seen there.</li>
 *   <li>Refusals run on the handling thread (queue full) or on a pool thread after the wait expired.</li>
 *   <li>The thread that completes an admitted request, any thread: its completion listener decrements {@code active},
 *       once per increment.</li>
 *   <li>Gauges, on admin threads: {@link #activeCount} reads the counter.</li>
 * </ul>
 * {@code AdmissionControlTest} checks it on the real server: a burst of a hundred requests, each admitted or refused
 * and counted once, and every place free again after.
 */
final class AdmissionHandler extends QoSHandler {

    private static final String ARRIVED_NANOS = AdmissionHandler.class.getName() + ".arrivedNanos";

    private final OverloadAnswer answer;
    private final AdmissionMetrics metrics;
    private final AtomicInteger active = new AtomicInteger();

    /** A handler that enforces {@code limits}, refuses with {@code answer} and counts into {@code metrics}. */
    AdmissionHandler(AdmissionLimits limits, OverloadAnswer answer, AdmissionMetrics metrics) {
        this.answer = answer;
        this.metrics = metrics;
        setMaxRequestCount(limits.maxRequests());
        setMaxSuspendedRequestCount(limits.maxQueued());
        setMaxSuspend(limits.maxQueueTime());
    }

    /** Requests that hold a place now (admitted, not yet completed). */
    int activeCount() {
        return active.get();
    }

    @Override
    public boolean onConditionsMet(Request request, Response response, Callback callback) throws Exception {
        request.setAttribute(ARRIVED_NANOS, System.nanoTime());
        return super.onConditionsMet(request, response, callback);
    }

    /** QoSHandler calls this for a request that got a place, and for an excluded one (which carries no stamp). */
    @Override
    protected boolean nextHandler(Request request, Response response, Callback callback) throws Exception {
        if (request.getAttribute(ARRIVED_NANOS) instanceof Long arrived) {
            metrics.admitted(System.nanoTime() - arrived);
            active.incrementAndGet();
            Request.addCompletionListener(request, failure -> active.decrementAndGet());
        }
        return super.nextHandler(request, response, callback);
    }

    /** {@code maxQueued} requests already wait (QoSHandler also calls this for an expired request handled again): refuse at once. */
    @Override
    protected void reject(Request request, Response response, Callback callback, int status) {
        metrics.refusedQueueFull();
        answer.writeQueueFull(response, callback);
    }

    /** The request waited {@code maxQueueTime} without a place: refuse it. */
    @Override
    protected void expireSuspended(Request request, Response response, Callback callback) {
        metrics.refusedQueueTimeout();
        answer.writeQueueTimeout(response, callback);
    }
}
