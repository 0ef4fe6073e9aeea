package com.example.threading.work;

import com.codahale.metrics.Meter;
import io.dropwizard.jersey.errors.ErrorMessage;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the simulated work of one async pattern on its executor and resumes the suspended request. Whichever thread
 * answers (the executor's, which carries the request's context, or Jersey's timeout thread, given it here) answers in
 * the request's context, so the resume, Jersey's exception mappers and the error body log with its request id.
 *
 * <p>Thread-safety, per role:
 * <ul>
 *   <li>Jetty workers call {@link #start}, concurrently; the instance holds only final, thread-safe fields, and each
 *       call owns its {@link AsyncResponse} and task.</li>
 *   <li>Three threads may race to answer one request: the executor's thread (the work is done), Jersey's timeout
 *       thread, and the submitting worker when the executor refuses the task. {@code AsyncResponse.resume} lets exactly
 *       one of them win; the others' answers are dropped.</li>
 *   <li>A timeout cancels the task (interrupting its sleep), so a timed-out request gives its thread back to the pool;
 *       a cancelled task does not resume.</li>
 * </ul>
 * {@code AsyncWorkTest} checks it on a real pool: the work racing its timeout, answered once.
 */
final class AsyncWork {

    private static final Logger LOG = LoggerFactory.getLogger(AsyncWork.class);

    /** What a task does: the simulated wait, or the wait behind a {@link ScarceDownstream}'s connection. */
    @FunctionalInterface
    interface Wait {
        /** Waits {@code ms} for {@code pattern}; {@link ScarceDownstream.Busy} when a bulkhead refused it. */
        WorkResult waitFor(String pattern, long ms) throws Exception;
    }

    private final String pattern;
    private final Executor executor;
    private final Wait wait;
    private final long timeoutMs;
    private final long retryAfterSeconds;
    private final Meter rejected;
    private final Meter timeouts;

    AsyncWork(String pattern, Executor executor, Wait wait, long timeoutMs, long retryAfterSeconds, Meter rejected, Meter timeouts) {
        this.pattern = pattern;
        this.executor = executor;
        this.wait = wait;
        this.timeoutMs = timeoutMs;
        this.retryAfterSeconds = retryAfterSeconds;
        this.rejected = rejected;
        this.timeouts = timeouts;
    }

    /** Hands a wait of {@code ms} to the executor; the request is answered by whichever of work, timeout or rejection comes first. */
    void start(AsyncResponse response, int ms) {
        FutureTask<WorkResult> task = new FutureTask<>(() -> wait.waitFor(pattern, ms)) {
            @Override
            protected void done() {
                if (isCancelled()) {
                    return; // the timeout handler has answered
                }
                try {
                    response.resume(get());
                } catch (ExecutionException e) {
                    response.resume(e.getCause() instanceof ScarceDownstream.Busy busy
                            ? serviceUnavailable(busy.getMessage()) : e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        // Jersey runs the timeout on a scheduler thread of its own: it answers in the request's context too.
        Context requestContext = Context.current();
        response.setTimeoutHandler(timedOut -> {
            try (Scope current = requestContext.makeCurrent()) {
                LOG.debug("{}: no answer within {} ms", pattern, timeoutMs);
                timeouts.mark();
                task.cancel(true);
                timedOut.resume(serviceUnavailable("no answer within " + timeoutMs + " ms"));
            }
        });
        response.setTimeout(timeoutMs, TimeUnit.MILLISECONDS);
        try {
            executor.execute(task);
        } catch (RejectedExecutionException e) {
            rejected.mark();
            response.resume(serviceUnavailable("the " + pattern + " pattern is at its concurrency limit"));
        }
    }

    private Response serviceUnavailable(String message) {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE)
                .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(new ErrorMessage(Response.Status.SERVICE_UNAVAILABLE.getStatusCode(), message))
                .build();
    }
}
