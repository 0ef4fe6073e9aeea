package com.example.threading.minimal;

import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.ThreadFactory;
import java.util.stream.IntStream;

/**
 * GET /minimal/structured?n=N&ms=M makes N calls to a downstream as the subtasks of one StructuredTaskScope (JDK 25,
 * the preview API of JEP 505), each on a virtual thread of its own, and answers once every one has ended. At most
 * {@code places} calls are in flight over all requests: a fan-out that does not fit is 503 before any call starts.
 * The scope's deadline cancels the calls still running; close() returns only when every subtask has ended, and only
 * then are the places given back. The request's thread waits in join(): run requests on virtual threads, or it
 * holds a Jetty worker for the fan-out's length.
 *
 * <p>Thread-safety: Jetty threads call {@link #fanout} concurrently; the semaphore hands out places atomically; the
 * subtasks' states are read by the request's thread after join(), which happens after every subtask.
 */
@Path("/minimal/structured")
@Produces(MediaType.APPLICATION_JSON)
public final class MinimalStructuredFanout {
    private static final ThreadFactory CALLS = Thread.ofVirtual().name("minimal-call-", 0).factory();
    private final WebTarget downstream;
    private final Duration deadline;
    private final Semaphore places;

    public MinimalStructuredFanout(WebTarget downstream, Duration deadline, int places) {
        this.downstream = downstream;
        this.deadline = deadline;
        this.places = new Semaphore(places);
    }

    /** Takes n places or answers 503, then makes the n calls as subtasks and answers when every one has ended. */
    @GET
    public Response fanout(@QueryParam("n") @Min(1) @Max(100) int n, @QueryParam("ms") int ms) throws InterruptedException {
        if (!places.tryAcquire(n)) {
            return Response.status(503).header(HttpHeaders.RETRY_AFTER, 1)
                    .entity(new ErrorMessage(503, n + " calls do not fit beside those in flight")).build();
        }
        try (var scope = StructuredTaskScope.open(Joiner.<String>awaitAll(),
                config -> config.withTimeout(deadline).withThreadFactory(CALLS))) {
            List<Subtask<String>> calls = IntStream.range(0, n)
                    .mapToObj(i -> scope.fork(() -> downstream.queryParam("ms", ms).request().get(String.class))).toList();
            boolean timedOut = false;
            try {
                scope.join();
            } catch (StructuredTaskScope.TimeoutException e) {
                timedOut = true;
            }
            long ok = calls.stream().filter(call -> call.state() == Subtask.State.SUCCESS).count();
            return Response.ok(Map.of("succeeded", ok, "failed", n - ok, "timedOut", timedOut)).build();
        } finally {
            places.release(n);
        }
    }
}
