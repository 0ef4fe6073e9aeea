package com.example.threading.work;

import com.codahale.metrics.Meter;
import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Runs the simulated work of one async pattern on its executor and resumes the suspended request.
 *
 * <p>Thread-safety: {@link #start} is called from Jetty worker threads, concurrently. Each call owns its
 * {@link AsyncResponse}; the executor thread, the timeout handler and the rejection path may race to
 * resume it, and {@code AsyncResponse.resume} lets exactly one of them win. A timeout cancels the task
 * (interrupting the sleep) so that a timed-out request gives its thread back to the pool.
 */
final class AsyncWork {

    private final String pattern;
    private final Executor executor;
    private final long timeoutMs;
    private final long retryAfterSeconds;
    private final Meter rejected;
    private final Meter timeouts;

    AsyncWork(String pattern, Executor executor, long timeoutMs, long retryAfterSeconds, Meter rejected, Meter timeouts) {
        this.pattern = pattern;
        this.executor = executor;
        this.timeoutMs = timeoutMs;
        this.retryAfterSeconds = retryAfterSeconds;
        this.rejected = rejected;
        this.timeouts = timeouts;
    }

    /** Hands a wait of {@code ms} to the executor; the request is answered by whichever of work, timeout or rejection comes first. */
    void start(AsyncResponse response, int ms) {
        FutureTask<WorkResult> task = new FutureTask<>(() -> SimulatedWork.waitFor(pattern, ms)) {
            @Override
            protected void done() {
                if (isCancelled()) {
                    return; // the timeout handler has answered
                }
                try {
                    response.resume(get());
                } catch (ExecutionException e) {
                    response.resume(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        response.setTimeoutHandler(timedOut -> {
            timeouts.mark();
            task.cancel(true);
            timedOut.resume(serviceUnavailable("no answer within " + timeoutMs + " ms"));
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
