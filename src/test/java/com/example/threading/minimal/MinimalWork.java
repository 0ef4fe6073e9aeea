package com.example.threading.minimal;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * GET /minimal/work?ms=N waits N ms on a fixed pool the service manages (stopped with it), never on the Jetty worker.
 * At most threads + queued requests hold a place; the next one gets 503 at once. No answer within the timeout: 503,
 * and the wait is interrupted so that its thread is free again.
 *
 * <p>Thread-safety: Jetty threads call {@link #work} concurrently. The pool thread, the timeout and the refusal race
 * to resume a response; {@code AsyncResponse.resume} lets one win. A place comes back once its task has run or
 * been cancelled: the release wraps the task, so it runs even for a task cancelled while queued.
 */
@Path("/minimal/work")
@Produces(MediaType.APPLICATION_JSON)
public final class MinimalWork {
    private final ExecutorService pool;
    private final Semaphore places;
    private final Duration timeout;

    public MinimalWork(ExecutorService pool, int places, Duration timeout) {
        this.pool = pool;
        this.places = new Semaphore(places);
        this.timeout = timeout;
    }

    /** {@code threads} managed threads; their queue holds every admitted task, so only the places refuse. */
    public static MinimalWork of(Environment environment, int threads, int queued, Duration timeout) {
        ExecutorService pool = environment.lifecycle().executorService("minimal-work-%d").minThreads(threads)
                .maxThreads(threads).workQueue(new ArrayBlockingQueue<>(threads + queued)).build();
        return new MinimalWork(pool, threads + queued, timeout);
    }

    /** Suspends the request and hands the wait to the pool; 503 when no place is free or the timeout passes. */
    @GET
    public void work(@QueryParam("ms") @Min(0) @Max(60_000) int ms, @Suspended AsyncResponse response) {
        if (!places.tryAcquire()) {
            response.resume(unavailable("all places taken"));
            return;
        }
        FutureTask<Boolean> wait = new FutureTask<>(() -> {
            Thread.sleep(ms);
            return response.resume(Map.of("waitedMs", ms, "thread", Thread.currentThread().getName()));
        });
        response.setTimeoutHandler(late -> {
            wait.cancel(true);
            late.resume(unavailable("no answer within " + timeout.toMillis() + " ms"));
        });
        response.setTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
        pool.execute(() -> {
            try {
                wait.run();
            } finally {
                places.release();
            }
        });
    }

    private static Response unavailable(String message) {
        return Response.status(503).header(HttpHeaders.RETRY_AFTER, 1).entity(new ErrorMessage(503, message)).build();
    }
}
