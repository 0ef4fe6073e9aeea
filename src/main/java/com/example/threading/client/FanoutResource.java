package com.example.threading.client;

import io.dropwizard.jersey.errors.ErrorMessage;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.container.AsyncResponse;
import jakarta.ws.rs.container.Suspended;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Calls a downstream {@code n} times concurrently and answers how long that took, on how many client threads
 * and with how many errors. The request is suspended: no Jetty worker waits for the {@code n} calls.
 *
 * <p>Jersey uses one instance for all requests; what belongs to one request lives in that request's {@link FanoutRun}.
 */
@Path(FanoutBundle.PATH)
@Produces(MediaType.APPLICATION_JSON)
public final class FanoutResource {

    static final int MAX_N = 1000;
    static final int MAX_MS = 60_000;

    private final Client client;
    private final Downstream downstream;
    private final FanoutCalls calls;
    private final long fanoutTimeoutMs;
    private final Map<Via, ViaMetrics> metrics;
    private final long retryAfterSeconds;

    FanoutResource(Client client, Downstream downstream, FanoutCalls calls, long fanoutTimeoutMs,
                   Map<Via, ViaMetrics> metrics, long retryAfterSeconds) {
        this.client = client;
        this.downstream = downstream;
        this.calls = calls;
        this.fanoutTimeoutMs = fanoutTimeoutMs;
        this.metrics = Map.copyOf(metrics);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** Makes {@code n} concurrent GETs of the downstream with {@code ?ms=} (left to the downstream when absent), the {@code via} way. */
    @GET
    public void fanout(@QueryParam("n") @DefaultValue("100") @Min(1) @Max(MAX_N) OptionalIntParam n,
                       @QueryParam("ms") @Min(0) @Max(MAX_MS) OptionalIntParam ms,
                       @QueryParam("via") @DefaultValue("managed")
                       @Pattern(regexp = Via.REGEXP, message = "must be one of managed, rxjava, callback, common, structured") String via,
                       @Suspended AsyncResponse response) {
        Optional<URI> uri = downstream.uri();
        if (uri.isEmpty()) {
            response.resume(Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new ErrorMessage(503, "the server has not finished starting")).build());
            return;
        }
        Via how = Via.of(via);
        Optional<String> missing = calls.missing(how);
        if (missing.isPresent()) {
            response.resume(Response.status(Response.Status.NOT_IMPLEMENTED).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new ErrorMessage(501, missing.get())).build());
            return;
        }
        if (!calls.tryAdmit(how, n.get())) {
            metrics.get(how).rejected().mark();
            response.resume(refused(how, n.get()));
            return;
        }
        Integer waitMs = ms == null ? null : ms.get();
        WebTarget target = client.target(uri.get());
        if (waitMs != null) {
            target = target.queryParam("ms", waitMs);
        }
        FanoutRun run = new FanoutRun(n.get(), how, waitMs, calls.executorFor(how), response, metrics.get(how));
        response.setTimeoutHandler(timedOut -> run.timedOut());
        response.setTimeout(fanoutTimeoutMs, TimeUnit.MILLISECONDS);
        calls.start(how, target, run);
    }

    /**
     * 400 when {@code n} alone exceeds what the way allows at once (only {@code via=common}: the others run a large
     * fan-out in waves), else 503 with Retry-After: the calls in flight leave too few places for this fan-out.
     */
    private Response refused(Via via, int n) {
        int capacity = calls.capacity(via);
        if (calls.width(via, n) > capacity) {
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON_TYPE)
                    .entity(new ErrorMessage(400, "via=common runs at most " + capacity + " calls at once (client.commonMaxCalls): use n <= "
                            + capacity + ", or another via"))
                    .build();
        }
        String knob = via == Via.COMMON ? "client.commonMaxCalls" : "client.maxCallsInFlight";
        return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds)
                .entity(new ErrorMessage(503, "via=" + via.label() + " has " + calls.inFlight(via) + " of its " + capacity
                        + " calls in flight (" + knob + "), too many for " + calls.width(via, n) + " more; retry later"))
                .build();
    }
}
