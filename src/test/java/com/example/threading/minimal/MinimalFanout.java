package com.example.threading.minimal;

import io.dropwizard.client.JerseyClientBuilder;
import io.dropwizard.client.JerseyClientConfiguration;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.stream.IntStream;

/**
 * GET /minimal/fanout?n=N&ms=M makes N calls to a downstream at once with JAX-RS {@code rx()} on a Jersey client
 * whose calls run on a pool the service manages, one thread per call in flight. At most {@code places} calls are in
 * flight over all requests: a fan-out that does not fit beside them gets 503 before any call starts. Each call is
 * bounded by the client's {@code timeout}; a failed call is counted, never a 500.
 *
 * <p>Thread-safety: Jetty threads call {@link #fanout} concurrently; the semaphore hands out places atomically. Each
 * call completes on the pool thread that made it; the last one to complete answers and gives the places back.
 */
@Path("/minimal/fanout")
@Produces(MediaType.APPLICATION_JSON)
public final class MinimalFanout {
    private final WebTarget downstream;
    private final int capacity;
    private final Semaphore places;

    public MinimalFanout(WebTarget downstream, int places) {
        this.downstream = downstream;
        this.capacity = places;
        this.places = new Semaphore(places);
    }

    /** A client on {@code places} managed threads (stopped with the service), calling {@code downstream}. */
    public static MinimalFanout of(Environment environment, JerseyClientConfiguration client, URI downstream, int places) {
        ExecutorService pool = environment.lifecycle().executorService("minimal-client-%d").minThreads(places)
                .maxThreads(places).workQueue(new ArrayBlockingQueue<>(places)).build();
        return new MinimalFanout(new JerseyClientBuilder(environment).using(client).using(pool).build("minimal")
                .target(downstream), places);
    }

    /** Takes n places or answers 503, then starts the n calls and answers when every one has an outcome. */
    @GET
    public void fanout(@QueryParam("n") @Min(1) @Max(100) int n, @QueryParam("ms") int ms, @Suspended AsyncResponse response) {
        if (n > capacity) {
            throw new BadRequestException("n above " + capacity + ", the calls this client makes at once");
        }
        if (!places.tryAcquire(n)) {
            response.resume(Response.status(503).header(HttpHeaders.RETRY_AFTER, 1)
                    .entity(new ErrorMessage(503, n + " calls do not fit beside those in flight")).build());
            return;
        }
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CompletableFuture<?>[] calls = IntStream.range(0, n).mapToObj(i -> downstream.queryParam("ms", ms).request()
                .rx().get(String.class).toCompletableFuture()
                .handle((body, error) -> {
                    threads.add(Thread.currentThread().getName());
                    return error == null;
                })).toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(calls).whenComplete((done, never) -> {
            places.release(n);
            long ok = IntStream.range(0, n).filter(i -> (Boolean) calls[i].join()).count();
            response.resume(Map.of("succeeded", ok, "failed", n - ok, "threads", threads));
        });
    }
}
